package main

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// server is a process under test listening on a loopback port.
type server struct {
	cmd  *exec.Cmd
	Addr string // host:port
	URL  string // http://host:port
	log  *os.File
	done chan error
}

// freePort asks the kernel for an unused loopback port.
func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// start runs bin with args plus --addr on a free loopback port, its stderr
// (the request log) going to logPath ("" discards it), and waits until
// GET /_sandbox/health answers 200 (healthPath "" for another server: any
// answer to GET / will do). It returns the time from process start until
// then.
func start(bin, logPath, healthPath string, args ...string) (*server, time.Duration, error) {
	addr, err := freePort()
	if err != nil {
		return nil, 0, err
	}
	s := &server{Addr: addr, URL: "http://" + addr, done: make(chan error, 1)}
	s.cmd = exec.Command(bin, append(args, "--addr", addr)...)
	if logPath == "" {
		logPath = os.DevNull
	}
	if s.log, err = os.Create(logPath); err != nil {
		return nil, 0, err
	}
	s.cmd.Stderr, s.cmd.Stdout = s.log, s.log
	t0 := time.Now()
	if err := s.cmd.Start(); err != nil {
		s.log.Close()
		return nil, 0, err
	}
	go func() { s.done <- s.cmd.Wait() }()
	took, err := s.waitHealthy(healthPath, 120*time.Second, t0)
	if err != nil {
		s.Kill()
		return nil, 0, fmt.Errorf("%s: %w (log: %s)", bin, err, logPath)
	}
	return s, took, nil
}

var pollClient = &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}

// waitHealthy polls every millisecond until the server answers.
func (s *server) waitHealthy(path string, limit time.Duration, t0 time.Time) (time.Duration, error) {
	deadline := t0.Add(limit)
	for time.Now().Before(deadline) {
		select {
		case err := <-s.done:
			s.done <- err
			return 0, fmt.Errorf("exited before it was healthy: %v", err)
		default:
		}
		res, err := pollClient.Get(s.URL + path)
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK || path == "" {
				return time.Since(t0), nil
			}
		}
		time.Sleep(time.Millisecond)
	}
	return 0, fmt.Errorf("not healthy within %s", limit)
}

// RSS is the process's resident memory in bytes (VmRSS).
func (s *server) RSS() (int64, error) { return rssOf(s.cmd.Process.Pid) }

// SettledRSS is the resident memory once it stops moving: sampled every
// 200 ms until two samples in a row are within 1 MB, for at most 5 s. The
// sandbox returns a big load's garbage to the system just after it starts
// answering, so the reading right at healthy still holds it.
func (s *server) SettledRSS() (int64, error) {
	last, err := s.RSS()
	for deadline := time.Now().Add(5 * time.Second); err == nil && time.Now().Before(deadline); {
		time.Sleep(200 * time.Millisecond)
		var now int64
		if now, err = s.RSS(); err == nil && now-last < 1<<20 && last-now < 1<<20 {
			return now, nil
		}
		last = now
	}
	return last, err
}

func rssOf(pid int) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmRSS line")
}

// Stop sends SIGTERM and waits (up to 15 s) for the process to exit,
// returning its exit error.
func (s *server) Stop() error {
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.done:
		s.done <- err
		s.log.Close()
		return err
	case <-time.After(15 * time.Second):
		s.Kill()
		return errors.New("still running 15 s after SIGTERM")
	}
}

// Kill sends SIGKILL and reaps the process.
func (s *server) Kill() {
	s.cmd.Process.Kill()
	err := <-s.done
	s.done <- err
	s.log.Close()
}

func mb(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/(1<<20)) }
