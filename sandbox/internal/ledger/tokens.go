package ledger

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// tokenKey stores the current token prices of a world.
var tokenKey = store.Key("m", "tokens")

// TokenPrice is one token's current price.
type TokenPrice struct {
	Symbol string `json:"symbol"`
	// Micros is the price in millionths of a dollar.
	Micros        int64     `json:"micros"`
	LastUpdatedAt time.Time `json:"lastUpdatedAt"`
}

// Value is the price as the API shows it: dollars rounded to two decimals.
func (p TokenPrice) Value() string {
	return strconv.FormatFloat(math.Round(float64(p.Micros)/1e4)/100, 'f', 2, 64)
}

type tokenState struct {
	Interval time.Duration `json:"interval"`
	Tick     int64         `json:"tick"`
	Prices   []TokenPrice  `json:"prices"`
}

// TokenTickKind is the scheduled event that moves the token prices
// (RunTokenTick).
const TokenTickKind = "token_prices.tick"

// InitTokens sets base prices from the catalogue and schedules the first tick.
func InitTokens(op *kernel.Op, interval time.Duration) error {
	if err := InitTokenPrices(op, interval); err != nil || interval <= 0 {
		return err
	}
	_, err := op.Schedule(TokenTickKind, op.Now.Add(interval), nil)
	return err
}

// InitTokenPrices sets base prices from the catalogue and the interval of
// their walk, scheduling no tick: a world written from its export declares
// its next tick among its events.
func InitTokenPrices(op *kernel.Op, interval time.Duration) error {
	st := tokenState{Interval: interval}
	for _, t := range op.W.Catalog.Tokens {
		st.Prices = append(st.Prices, TokenPrice{
			Symbol: t.Symbol, Micros: int64(math.Round(t.BasePrice * 1e6)), LastUpdatedAt: op.Now,
		})
	}
	return op.Tx.Put(tokenKey, &st)
}

// TokenWalk is where the world's token prices stand: how often they move
// (0: never), how many moves they made and the prices now.
func TokenWalk(op *kernel.Op) (interval time.Duration, tick int64, prices []TokenPrice, err error) {
	var st tokenState
	_, err = op.Tx.Get(tokenKey, &st)
	return st.Interval, st.Tick, st.Prices, err
}

// SetTokenWalk puts the token prices where a walk left them: tick moves
// made, prices replacing those of the same symbols.
func SetTokenWalk(op *kernel.Op, tick int64, prices []TokenPrice) error {
	var st tokenState
	if _, err := op.Tx.Get(tokenKey, &st); err != nil {
		return err
	}
	st.Tick = tick
	for _, p := range prices {
		for i := range st.Prices {
			if st.Prices[i].Symbol == p.Symbol {
				st.Prices[i] = p
			}
		}
	}
	return op.Tx.Put(tokenKey, &st)
}

// RunTokenTick moves every price one step of a seeded random walk and
// schedules the next tick.
func RunTokenTick(op *kernel.Op, _ *kernel.Event) (string, error) {
	var st tokenState
	if _, err := op.Tx.Get(tokenKey, &st); err != nil {
		return "", err
	}
	st.Tick++
	for i := range st.Prices {
		p := &st.Prices[i]
		vol := 0.0
		for _, t := range op.W.Catalog.Tokens {
			if t.Symbol == p.Symbol {
				vol = t.Volatility
			}
		}
		u := float64(kernel.Derive(op.W.Seed, "token:"+p.Symbol, st.Tick)%1_000_001) / 1_000_000
		move := (u*2 - 1) * vol
		p.Micros = max(1, int64(math.Round(float64(p.Micros)*(1+move))))
		p.LastUpdatedAt = op.Now
	}
	if err := op.Tx.Put(tokenKey, &st); err != nil {
		return "", err
	}
	if _, err := op.Schedule(TokenTickKind, op.Now.Add(st.Interval), nil); err != nil {
		return "", err
	}
	return fmt.Sprintf("token prices tick %d", st.Tick), nil
}

// TokenPrices returns the current prices.
func TokenPrices(w *kernel.World) ([]TokenPrice, error) {
	var st tokenState
	err := w.View(func(op *kernel.Op) error {
		_, err := op.Tx.Get(tokenKey, &st)
		return err
	})
	return st.Prices, err
}
