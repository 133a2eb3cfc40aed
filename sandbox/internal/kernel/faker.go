package kernel

import "github.com/brianvoe/gofakeit/v7"

// Faker returns a faker seeded from the world's seed, a label and a number:
// every random choice is the same on every run.
func (w *World) Faker(label string, n int64) *gofakeit.Faker {
	return gofakeit.New(Derive(w.Seed, label, n))
}
