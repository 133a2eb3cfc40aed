package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const minimal = "legalEntities:\n  - id: le_one\n    name: One\n"

func TestLibrary(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.yaml")
	if err := os.WriteFile(secret, []byte("password: hunter2-topsecret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mustWrite := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite("mine.yaml", minimal)
	mustWrite("broken.yaml", "legalEntities: hunter2-topsecret\n")
	if err := os.Symlink(secret, filepath.Join(dir, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub.yaml"), 0o700); err != nil {
		t.Fatal(err)
	}
	lib, err := OpenLibrary(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()

	t.Run("embedded name", func(t *testing.T) {
		sc, err := lib.Load("demo")
		if err != nil || sc.Name != "demo" {
			t.Fatalf("Load(demo) = %v, %v", sc, err)
		}
	})
	t.Run("file of the directory, with or without its extension", func(t *testing.T) {
		for _, name := range []string{"mine", "mine.yaml"} {
			sc, err := lib.Load(name)
			if err != nil || len(sc.LegalEntities) != 1 {
				t.Fatalf("Load(%s) = %v, %v", name, sc, err)
			}
		}
	})
	for _, name := range []string{secret, "/etc/passwd", "../" + filepath.Base(outside) + "/secret", "..", ".hidden",
		"/dev/zero", "/proc/self/status", "link", "sub", "nope", ""} {
		t.Run("refused "+name, func(t *testing.T) {
			_, err := lib.Load(name)
			if err == nil {
				t.Fatalf("Load(%q) succeeded", name)
			}
			if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "root:") {
				t.Fatalf("Load(%q) echoes file content: %v", name, err)
			}
		})
	}
	t.Run("unknown names list what exists", func(t *testing.T) {
		_, err := lib.Load("nope")
		if !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), "mine") || !strings.Contains(err.Error(), "demo") {
			t.Fatalf("Load(nope) = %v, want ErrUnknown naming mine and demo", err)
		}
	})
	t.Run("problems never quote the value", func(t *testing.T) {
		_, err := lib.Load("broken")
		ps, ok := AsProblems(err)
		if !ok || len(ps) == 0 {
			t.Fatalf("Load(broken) = %v, want problems", err)
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Fatalf("problem echoes the file: %v", err)
		}
		if ps[0].Message != "legalEntities: expected a list, got text" {
			t.Fatalf("problem = %q, want it to name the kinds", ps[0].Message)
		}
	})
	t.Run("without a directory only embedded names", func(t *testing.T) {
		none, _ := OpenLibrary("")
		if _, err := none.Load("mine"); !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), "--scenarios-dir") {
			t.Fatalf("Load(mine) without a directory = %v", err)
		}
		if _, err := none.Load("empty"); err != nil {
			t.Fatalf("Load(empty) = %v", err)
		}
	})
}

func TestLoadFileBounded(t *testing.T) {
	if _, err := Load("/dev/zero"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("Load(/dev/zero) = %v, want a refusal", err)
	}
	big := filepath.Join(t.TempDir(), "big.yaml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("Load(big) = %v, want too large", err)
	}
}
