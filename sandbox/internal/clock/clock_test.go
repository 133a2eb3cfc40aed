package clock

import (
	"testing"
	"time"
)

type fakeWall struct{ t time.Time }

func (f *fakeWall) now() time.Time { return f.t }

func TestClockModes(t *testing.T) {
	start := time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC)
	wall := &fakeWall{t: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}

	t.Run("frozen does not follow the wall", func(t *testing.T) {
		c := New(start, wall.now)
		wall.t = wall.t.Add(time.Hour)
		if got := c.Now(); !got.Equal(start) {
			t.Fatalf("Now() = %v, want %v", got, start)
		}
	})
	t.Run("real follows the wall from the switch", func(t *testing.T) {
		c := New(start, wall.now)
		if err := c.SetMode(Real, 0); err != nil {
			t.Fatal(err)
		}
		wall.t = wall.t.Add(90 * time.Second)
		if got, want := c.Now(), start.Add(90*time.Second); !got.Equal(want) {
			t.Fatalf("Now() = %v, want %v", got, want)
		}
	})
	t.Run("scaled multiplies elapsed wall time", func(t *testing.T) {
		c := New(start, wall.now)
		if err := c.SetMode(Scaled, 60); err != nil {
			t.Fatal(err)
		}
		wall.t = wall.t.Add(time.Minute)
		if got, want := c.Now(), start.Add(time.Hour); !got.Equal(want) {
			t.Fatalf("Now() = %v, want %v", got, want)
		}
	})
	t.Run("never backwards", func(t *testing.T) {
		c := New(start, wall.now)
		if err := c.Set(start.Add(-time.Second)); err == nil {
			t.Fatal("Set to the past succeeded")
		}
		if err := c.Set(start.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if got, want := c.Now(), start.Add(time.Hour); !got.Equal(want) {
			t.Fatalf("Now() = %v, want %v", got, want)
		}
	})
	t.Run("scaled needs a positive scale", func(t *testing.T) {
		c := New(start, wall.now)
		if err := c.SetMode(Scaled, 0); err == nil {
			t.Fatal("scale 0 accepted")
		}
		if err := c.SetMode(Scaled, MaxScale+1); err == nil {
			t.Fatal("a scale above MaxScale accepted")
		}
		if err := c.SetMode(Scaled, MaxScale); err != nil {
			t.Fatalf("MaxScale refused: %v", err)
		}
		if _, err := ParseMode("warp"); err == nil {
			t.Fatal("unknown mode accepted")
		}
	})
	t.Run("range", func(t *testing.T) {
		for _, bad := range []time.Time{Earliest.Add(-time.Millisecond), Latest,
			time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC), {}} {
			if InRange(bad) == nil {
				t.Errorf("InRange(%v) accepted", bad)
			}
		}
		for _, good := range []time.Time{Earliest, Latest.Add(-time.Millisecond), start} {
			if err := InRange(good); err != nil {
				t.Errorf("InRange(%v) = %v", good, err)
			}
		}
	})
	t.Run("restore moves back", func(t *testing.T) {
		c := New(start.Add(time.Hour), wall.now)
		c.Restore(State{Mode: Frozen, Now: start})
		if got := c.Now(); !got.Equal(start) {
			t.Fatalf("Now() = %v, want %v", got, start)
		}
	})
}
