package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// A lean HTTP/1.1 keep-alive client: requests are prebuilt bytes and only
// the status line, Content-Length and Connection are read from answers.
// It costs far less CPU than net/http's client, so on a small machine the
// server under test, not the load generator, is what gets measured (the
// same approach as wrk).

// rawRequest builds the bytes of one request.
func rawRequest(method, path string, header map[string]string, body []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n", method, path)
	for k, v := range header {
		fmt.Fprintf(&b, "%s: %s\r\n", k, v)
	}
	if body != nil {
		fmt.Fprintf(&b, "Content-Type: application/json\r\nContent-Length: %d\r\n", len(body))
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

// conn is one keep-alive connection.
type conn struct {
	addr string
	c    net.Conn
	br   *bufio.Reader
	body []byte
}

func (c *conn) close() {
	if c.c != nil {
		c.c.Close()
		c.c = nil
	}
}

// do sends req and reads the answer; the body is kept in c.body until the
// next call. A broken connection is redialled once.
func (c *conn) do(req []byte) (int, error) {
	for attempt := 0; ; attempt++ {
		status, err := c.try(req)
		if err == nil {
			return status, nil
		}
		c.close() // the stream's position is unknown after any error
		if attempt == 1 || !retryable(err) {
			return status, err
		}
	}
}

var errServerClosed = errors.New("connection closed by the server")

func retryable(err error) bool {
	return errors.Is(err, errServerClosed) || errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed)
}

func (c *conn) try(req []byte) (int, error) {
	if c.c == nil {
		nc, err := net.DialTimeout("tcp", c.addr, 5*time.Second)
		if err != nil {
			return 0, err
		}
		c.c, c.br = nc, bufio.NewReaderSize(nc, 64<<10)
	}
	c.c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := c.c.Write(req); err != nil {
		return 0, errServerClosed
	}
	line, err := c.br.ReadSlice('\n')
	if err != nil {
		return 0, errServerClosed
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.1 ")) {
		return 0, fmt.Errorf("bad status line %q", line)
	}
	status, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, fmt.Errorf("bad status line %q", line)
	}
	length, closing := -1, false
	for {
		h, err := c.br.ReadSlice('\n')
		if err != nil {
			return 0, err
		}
		h = bytes.TrimRight(h, "\r\n")
		if len(h) == 0 {
			break
		}
		name, value, _ := bytes.Cut(h, []byte(":"))
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil {
				return 0, fmt.Errorf("bad Content-Length %q", value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			return 0, fmt.Errorf("chunked answers are not supported (status %d)", status)
		case bytes.EqualFold(name, []byte("Connection")):
			closing = bytes.EqualFold(value, []byte("close"))
		}
	}
	if length < 0 {
		return 0, fmt.Errorf("answer without Content-Length (status %d)", status)
	}
	if cap(c.body) < length {
		c.body = make([]byte, length)
	}
	c.body = c.body[:length]
	if _, err := io.ReadFull(c.br, c.body); err != nil {
		return 0, err
	}
	if closing {
		c.close()
	}
	return status, nil
}

// loadResult is what one load run measured.
type loadResult struct {
	Requests int
	Elapsed  time.Duration
	Status   map[int]int
	Errors   []error
	lat      []time.Duration
}

// RPS is requests per second.
func (r loadResult) RPS() float64 { return float64(r.Requests) / r.Elapsed.Seconds() }

// Pct is the q-quantile of the latencies (0.5, 0.99).
func (r loadResult) Pct(q float64) time.Duration { return quantile(r.lat, q) }

func quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// Non2xx counts answers outside 200–299.
func (r loadResult) Non2xx() int {
	n := 0
	for s, c := range r.Status {
		if s < 200 || s > 299 {
			n += c
		}
	}
	return n
}

// loadSpec says how hard and how long to push.
type loadSpec struct {
	Addr     string
	Conns    int
	Duration time.Duration
	Warmup   time.Duration
	Max      int // request cap over the measured phase (0: 10 million)
}

// hammer runs spec.Conns connections, each sending next(worker, i) in a
// loop: first for the warm-up (not counted), then until Duration has passed
// or Max requests were sent.
func hammer(spec loadSpec, next func(worker, i int) []byte) loadResult {
	if spec.Max <= 0 {
		spec.Max = 10_000_000
	}
	var (
		mu       sync.Mutex
		res      = loadResult{Status: map[int]int{}}
		sent     atomic.Int64
		measured atomic.Bool
		wg       sync.WaitGroup
	)
	warmEnd := time.Now().Add(spec.Warmup)
	var t0 time.Time
	var t0once sync.Once
	for w := range spec.Conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &conn{addr: spec.Addr}
			defer c.close()
			status := map[int]int{}
			var lat []time.Duration
			var errs []error
			for i := 0; ; i++ {
				now := time.Now()
				if now.After(warmEnd) && !measured.Load() {
					t0once.Do(func() { t0 = now; measured.Store(true) })
				}
				counting := measured.Load()
				if counting && (now.Sub(t0) >= spec.Duration || sent.Add(1) > int64(spec.Max)) {
					break
				}
				s, err := c.do(next(w, i))
				if !counting {
					continue
				}
				if err != nil {
					errs = append(errs, err)
					if len(errs) > 20 {
						break
					}
					continue
				}
				status[s]++
				lat = append(lat, time.Since(now))
			}
			mu.Lock()
			defer mu.Unlock()
			for s, n := range status {
				res.Status[s] += n
				res.Requests += n
			}
			res.lat = append(res.lat, lat...)
			res.Errors = append(res.Errors, errs...)
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(t0)
	return res
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
