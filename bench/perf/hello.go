package main

import (
	"bytes"
	"flag"
	"net/http"
	"strconv"
	"time"
)

// runHello serves the baseline: a bare net/http server answering every
// request with a fixed 13-byte body.
func runHello(args []string) error {
	fs := flag.NewFlagSet("hello", flag.ExitOnError)
	addr := fs.String("addr", "127.0.0.1:8090", "listen address")
	size := fs.Int("size", 0, "answer this many bytes instead of \"Hello, World!\"")
	fs.Parse(args)
	body := []byte("Hello, World!")
	if *size > 0 {
		body = bytes.Repeat([]byte("x"), *size)
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	})
	srv := &http.Server{Addr: *addr, Handler: h, ReadHeaderTimeout: 10 * time.Second}
	return srv.ListenAndServe()
}
