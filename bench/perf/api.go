package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// api is a small JSON client for one sandbox and one API key.
type api struct {
	base   string
	key    string
	client *http.Client
}

func newAPI(base, key string, conns int) *api {
	return &api{base: base, key: key, client: &http.Client{Timeout: 30 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}}}
}

// call sends a request; body may be nil, header may add headers. It
// returns the status and the raw answer.
func (a *api) call(method, path string, body any, header map[string]string) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, a.base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if a.key != "" {
		req.Header.Set("X-API-Key", a.key)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := a.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	return res.StatusCode, raw, err
}

// getJSON GETs path and decodes a 200 answer into v.
func (a *api) getJSON(path string, v any) error {
	status, raw, err := a.call(http.MethodGet, path, nil, nil)
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("GET %s: %d %s", path, status, raw)
	}
	return json.Unmarshal(raw, v)
}

// page is a list page.
type page struct {
	Items    []map[string]any `json:"items"`
	Metadata struct {
		NextCursor string `json:"nextCursor"`
	} `json:"metadata"`
}
