package ui_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestDashboardHeadlessScreenshot: a screenshot of a page taken the way a
// script takes one, chromium --headless with a virtual-time budget, ends
// and leaves the picture, although the page keeps its long poll open (a
// request the page held itself would stop virtual time until answered).
// The time limit is a generous bound on a hang, not a measure of speed.
func TestDashboardHeadlessScreenshot(t *testing.T) {
	w := newWorld(t)
	bin, err := chromiumPath()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	for _, hash := range []string{"#/overview", "#/journal"} {
		shot := filepath.Join(dir, "page.png")
		os.Remove(shot)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
			"--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=800,600", "--virtual-time-budget=5000",
			"--screenshot="+shot, fmt.Sprintf("%s/_sandbox/ui?token=%s&world=%s%s", w.url, adminToken, w.id, hash))
		out, err := cmd.CombinedOutput()
		hung := ctx.Err() != nil
		cancel()
		if hung {
			t.Fatalf("%s: the headless screenshot did not finish within a minute: %s", hash, clip(string(out)))
		}
		if err != nil {
			t.Fatalf("%s: chromium: %v: %s", hash, err, clip(string(out)))
		}
		raw, err := os.ReadFile(shot)
		if err != nil {
			t.Fatalf("%s: no screenshot: %v", hash, err)
		}
		img, err := png.Decode(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%s: the screenshot is not a PNG: %v", hash, err)
		}
		if b := img.Bounds(); b.Dx() != 800 || b.Dy() != 600 {
			t.Errorf("%s: the screenshot is %v, want the 800×600 window", hash, b)
		}
		// The header's colour (#1f2a44) at its top left: the page was
		// drawn with its styles.
		if r, g, b, _ := img.At(2, 2).RGBA(); r>>8 != 0x1f || g>>8 != 0x2a || b>>8 != 0x44 {
			t.Errorf("%s: the top left pixel is #%02x%02x%02x, want the header's #1f2a44", hash, r>>8, g>>8, b>>8)
		}
	}
}
