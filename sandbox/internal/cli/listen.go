package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

// listenOptions are what listen is told.
type listenOptions struct {
	// ForwardTo is the URL every delivery is forwarded to.
	ForwardTo string
	// Events, when not empty, are the event types forwarded; the others
	// are answered 204 without being forwarded.
	Events []string
	// ListenAddr is the address the receiver binds; 127.0.0.1:0 by default.
	ListenAddr string
	// PublicURL is the URL the endpoint is registered with; by default the
	// receiver's own address.
	PublicURL string
	// LegalEntity is the legal entity whose events are received; by
	// default the one a trigger acts for.
	LegalEntity string
	// ready, when set, is told the endpoint once it is registered.
	ready func(webhookID string)
}

// Forwarding limits: the sandbox gives a delivery 10 s, so the forward
// gets a little less, and keeps 4 KiB of the answer, as the sandbox does.
const (
	forwardTimeout = 9 * time.Second
	maxForwardBody = 1 << 20
	maxAnswerBody  = 4 << 10
)

// check refuses options listen cannot work with, as usage errors.
func (o *listenOptions) check() error {
	if err := checkHTTPURL("--forward-to", o.ForwardTo); err != nil {
		return err
	}
	if o.PublicURL != "" {
		if err := checkHTTPURL("--public-url", o.PublicURL); err != nil {
			return err
		}
	}
	for _, e := range o.Events {
		if !slices.Contains(client.WebhookEventTypes, e) {
			return usageError(
				fmt.Sprintf("--events: %q is not a webhook event type (%s)", e, strings.Join(client.WebhookEventTypes, ", ")),
			)
		}
	}
	if o.ListenAddr == "" {
		o.ListenAddr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(o.ListenAddr)
	if err != nil {
		return usageError(fmt.Sprintf("--listen-addr: %q is not host:port", o.ListenAddr))
	}
	if ip := net.ParseIP(host); o.PublicURL == "" && (host == "" || (ip != nil && ip.IsUnspecified())) {
		return usageError(
			"--listen-addr " + o.ListenAddr + " binds every interface: give --public-url, the URL the sandbox reaches it at",
		)
	}
	return nil
}

func checkHTTPURL(flag, raw string) error {
	u, err := url.Parse(raw)
	if raw == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageError(
			fmt.Sprintf("%s: %q is not an absolute http or https URL, such as http://localhost:3000/hooks", flag, raw),
		)
	}
	return nil
}

// listen registers a temporary webhook endpoint in the world pointing at a
// receiver it starts, forwards every delivery to o.ForwardTo and answers
// the sandbox with what the target answered, until ctx ends; then it
// archives the endpoint.
func listen(ctx context.Context, c *client.Client, o listenOptions, stdout, stderr io.Writer) error {
	if err := o.check(); err != nil {
		return err
	}
	key, le, err := writeKey(ctx, c, o.LegalEntity)
	if err != nil {
		return err
	}
	pemKey, err := c.PublicKeyPEM(ctx)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.ListenAddr)
	if err != nil {
		return fmt.Errorf("--listen-addr: %w", err)
	}
	receiver := o.PublicURL
	if receiver == "" {
		receiver = "http://" + ln.Addr().String() + "/"
	}
	f := &forwarder{target: o.ForwardTo, events: o.Events, out: stdout,
		http: &http.Client{
			Timeout:       forwardTimeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}}
	srv := &http.Server{Handler: f, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	defer srv.Close()
	api := publicAPI{c: c, key: key, le: le}
	var hook struct {
		ID string `json:"id"`
	}
	if err := api.call(ctx, http.MethodPost, "/webhook", map[string]string{"url": receiver,
		"name": "slash-sandbox listen", "legalEntityId": le}, &hook); err != nil {
		return fmt.Errorf("register the endpoint: %w", err)
	}
	fmt.Fprintf(stdout, "Ready. Endpoint %s of %s receives every event at %s and forwards it to %s (Ctrl-C to stop).\n",
		hook.ID, le, receiver, o.ForwardTo)
	fmt.Fprintf(stdout,
		"Verify slash-webhook-signature (RSASSA-PKCS1-v1_5, SHA-256 over the raw body, base64) with this public key:\n%s\n",
		strings.TrimSpace(pemKey))
	if o.ready != nil {
		o.ready(hook.ID)
	}
	select {
	case <-ctx.Done():
	case err = <-served:
		fmt.Fprintf(stderr, "slash-sandbox listen: receiver stopped: %v\n", err)
	}
	srv.Close()
	archive, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if aerr := api.call(archive, http.MethodPatch, "/webhook/"+hook.ID,
		map[string]string{"status": "archived", "reason": "slash-sandbox listen stopped"}, nil); aerr != nil {
		return errors.Join(err, fmt.Errorf("archive endpoint %s: %w", hook.ID, aerr))
	}
	fmt.Fprintf(stdout, "Archived endpoint %s.\n", hook.ID)
	return err
}

// writeKey is a key of the world that may write for the legal entity
// named, else for the first legal entity of the first key that may write:
// the one a trigger acts for by default.
func writeKey(ctx context.Context, c *client.Client, le string) (string, string, error) {
	keys, err := c.Keys(ctx)
	if err != nil {
		return "", "", err
	}
	for _, k := range keys {
		if k.ReadOnly || len(k.LegalEntityIDs) == 0 {
			continue
		}
		if le == "" {
			return k.Key, k.LegalEntityIDs[0], nil
		}
		if slices.Contains(k.LegalEntityIDs, le) {
			return k.Key, le, nil
		}
	}
	if le == "" {
		return "", "", errors.New("the world has no key that may write, so no endpoint can be registered")
	}
	return "", "", fmt.Errorf("no key of the world may write for legal entity %s", le)
}

// publicAPI calls the sandbox's public API with one of the world's keys.
type publicAPI struct {
	c       *client.Client
	key, le string
}

func (a publicAPI) call(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.c.BaseURL+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("X-API-Key", a.key)
	req.Header.Set("x-legal-entity", a.le)
	res, err := a.c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(res.Body, maxForwardBody))
	if err != nil {
		return err
	}
	if res.StatusCode >= 300 {
		var e struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(answer, &e) != nil || e.Message == "" {
			e.Message = strings.TrimSpace(string(answer))
		}
		return fmt.Errorf("%s %s: %d: %s", method, path, res.StatusCode, e.Message)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(answer, out)
}

// forwarder receives the sandbox's deliveries and forwards each to the
// target with its method, body and headers, answering the sandbox with the
// target's status and body.
type forwarder struct {
	target string
	events []string
	http   *http.Client
	mu     sync.Mutex
	out    io.Writer
}

// hopHeaders belong to one connection and are not forwarded.
var hopHeaders = []string{
	"Connection",
	"Keep-Alive",
	"Proxy-Connection",
	"Te",
	"Trailer",
	"Transfer-Encoding",
	"Upgrade",
	"Content-Length",
	"Accept-Encoding",
}

func (f *forwarder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxForwardBody))
	if err != nil {
		http.Error(w, "slash-sandbox listen: reading the delivery: "+err.Error(), http.StatusBadRequest)
		return
	}
	event := r.Header.Get("slash-webhook-event")
	if len(f.events) > 0 && !slices.Contains(f.events, event) {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	start := time.Now()
	status, answer, contentType, err := f.forward(r, body)
	latency := time.Since(start).Round(time.Millisecond)
	line := fmt.Sprintf("%s  %s  %s  attempt %s  -> ", start.Format("2006-01-02 15:04:05"), event,
		r.Header.Get("slash-webhook-event-id"), r.Header.Get("slash-webhook-attempt"))
	if err != nil {
		f.print(fmt.Sprintf("%serror: %v (answered %d)  %s\n", line, err, http.StatusBadGateway, latency))
		http.Error(w, "slash-sandbox listen: forward to "+f.target+": "+err.Error(), http.StatusBadGateway)
		return
	}
	f.print(fmt.Sprintf("%s%d  %s\n", line, status, latency))
	if contentType != "" {
		w.Header().Set("Content-Type", contentType)
	}
	w.WriteHeader(status)
	w.Write(answer)
}

// forward makes the request to the target and reads its answer.
func (f *forwarder) forward(r *http.Request, body []byte) (int, []byte, string, error) {
	req, err := http.NewRequestWithContext(r.Context(), r.Method, f.target, bytes.NewReader(body))
	if err != nil {
		return 0, nil, "", err
	}
	req.Header = r.Header.Clone()
	for _, h := range hopHeaders {
		req.Header.Del(h)
	}
	// A forward to the sandbox itself is refused there, whatever it names.
	req.Header.Set(server.SenderHeader, server.SentByListen)
	res, err := f.http.Do(req)
	if err != nil {
		return 0, nil, "", err
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(res.Body, maxAnswerBody))
	if err != nil {
		return 0, nil, "", err
	}
	return res.StatusCode, answer, res.Header.Get("Content-Type"), nil
}

// print writes one line; deliveries to different endpoints may arrive at
// once.
func (f *forwarder) print(line string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	io.WriteString(f.out, line)
}
