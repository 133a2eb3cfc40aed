package cards

import (
	"strings"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestLimitWindow(t *testing.T) {
	cases := []struct {
		name      string
		limit     UtilizationLimit
		now       string
		start     string // RFC 3339, "" for none
		nextReset string
	}{
		{
			"daily UTC",
			UtilizationLimit{Preset: "daily"},
			"2026-06-15T14:00:00Z",
			"2026-06-15T00:00:00Z",
			"2026-06-16T00:00:00Z",
		},
		{"daily ignores startDate", UtilizationLimit{Preset: "daily", StartDate: "2026-01-03"}, "2026-06-15T14:00:00Z",
			"2026-06-15T00:00:00Z", "2026-06-16T00:00:00Z"},
		{"daily New York before local midnight", UtilizationLimit{Preset: "daily", Timezone: "America/New_York"},
			"2026-06-15T03:00:00Z", "2026-06-14T04:00:00Z", "2026-06-15T04:00:00Z"},
		{"daily over the New York fall-back day is 25 hours", UtilizationLimit{Preset: "daily", Timezone: "America/New_York"},
			"2026-11-02T04:30:00Z", "2026-11-01T04:00:00Z", "2026-11-02T05:00:00Z"},
		{"daily London on the fall-back day", UtilizationLimit{Preset: "daily", Timezone: "Europe/London"},
			"2026-10-25T12:00:00Z", "2026-10-24T23:00:00Z", "2026-10-26T00:00:00Z"},
		{
			"weekly from Monday",
			UtilizationLimit{Preset: "weekly"},
			"2026-06-17T10:00:00Z",
			"2026-06-15T00:00:00Z",
			"2026-06-22T00:00:00Z",
		},
		{
			"weekly on Monday itself",
			UtilizationLimit{Preset: "weekly"},
			"2026-06-15T00:00:00Z",
			"2026-06-15T00:00:00Z",
			"2026-06-22T00:00:00Z",
		},
		{"weekly from startDate", UtilizationLimit{Preset: "weekly", StartDate: "2026-06-04"}, "2026-06-17T10:00:00Z",
			"2026-06-11T00:00:00Z", "2026-06-18T00:00:00Z"},
		{
			"weekly across London's clock change",
			UtilizationLimit{Preset: "weekly", Timezone: "Europe/London", StartDate: "2026-10-20"},
			"2026-10-27T10:00:00Z",
			"2026-10-27T00:00:00Z",
			"2026-11-03T00:00:00Z",
		},
		{"monthly from the 1st", UtilizationLimit{Preset: "monthly", Timezone: "America/Los_Angeles"}, "2026-06-15T14:00:00Z",
			"2026-06-01T07:00:00Z", "2026-07-01T07:00:00Z"},
		{"monthly anniversary", UtilizationLimit{Preset: "monthly", StartDate: "2026-01-20"}, "2026-06-15T14:00:00Z",
			"2026-05-20T00:00:00Z", "2026-06-20T00:00:00Z"},
		{
			"monthly on the 31st clamps to short months",
			UtilizationLimit{Preset: "monthly", StartDate: "2026-01-31"},
			"2026-03-01T10:00:00Z",
			"2026-02-28T00:00:00Z",
			"2026-03-31T00:00:00Z",
		},
		{
			"yearly from January 1st",
			UtilizationLimit{Preset: "yearly"},
			"2026-06-15T14:00:00Z",
			"2026-01-01T00:00:00Z",
			"2027-01-01T00:00:00Z",
		},
		{
			"yearly anniversary not reached yet",
			UtilizationLimit{Preset: "yearly", StartDate: "2025-09-10"},
			"2026-06-15T14:00:00Z",
			"2025-09-10T00:00:00Z",
			"2026-09-10T00:00:00Z",
		},
		{"yearly from February 29th", UtilizationLimit{Preset: "yearly", StartDate: "2024-02-29"}, "2026-06-15T14:00:00Z",
			"2026-02-28T00:00:00Z", "2027-02-28T00:00:00Z"},
		{
			"collective never resets",
			UtilizationLimit{Preset: "collective", StartDate: "2026-06-01"},
			"2026-06-15T14:00:00Z",
			"",
			"",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := LimitWindow(&c.limit, mustTime(t, c.now))
			if c.start == "" {
				if !w.Start.IsZero() || w.Next != nil {
					t.Fatalf("window = %v .. %v, want lifetime", w.Start, w.Next)
				}
				return
			}
			if got, want := w.Start, mustTime(t, c.start); !got.Equal(want) {
				t.Fatalf("start = %s, want %s", got.UTC(), want)
			}
			if got, want := *w.Next, mustTime(t, c.nextReset); !got.Equal(want) {
				t.Fatalf("next reset = %s, want %s", got.UTC(), want)
			}
		})
	}
}

func TestZoneProblem(t *testing.T) {
	cases := []struct{ zone, mentions string }{
		{"America/New_York", ""},
		{"Asia/Kolkata", ""},
		{"AMERICA_NEW_YORK", "did you mean America/New_York"},
		{"+05:00", "bare UTC offset"},
		{"UTC+5", "bare UTC offset"},
		{"GMT-3", "bare UTC offset"},
		{"EST", "abbreviation"},
		{"PST", "abbreviation"},
		{"US/Eastern", "link"},
		{"Asia/Calcutta", "link"},
		{"UTC", "omit timezone"},
		{"Mars/Olympus_Mons", "canonical IANA"},
	}
	for _, c := range cases {
		t.Run(c.zone, func(t *testing.T) {
			got := ZoneProblem(c.zone)
			if c.mentions == "" && got != "" {
				t.Fatalf("ZoneProblem(%q) = %q, want none", c.zone, got)
			}
			if c.mentions != "" && !strings.Contains(got, c.mentions) {
				t.Fatalf("ZoneProblem(%q) = %q, want it to mention %q", c.zone, got, c.mentions)
			}
		})
	}
}

func TestMergeConstraint(t *testing.T) {
	cat := fixtures.MustLoad()
	now := mustTime(t, "2026-06-15T14:00:00Z")
	base, err := ParseConstraint([]byte(`{
		"merchantRule": {"merchants": ["merchant_v2_aws"]},
		"countryRule": {"countries": ["US"], "restriction": "blacklist"},
		"spendingRule": {
			"utilizationLimit": {"limitAmount": {"amountCents": 5000}, "preset": "monthly", "timezone": "Europe/London"},
			"transactionSizeLimit": {"minimum": {"amountCents": 100}, "maximum": {"amountCents": 2000}}
		}}`), "", now, cat)
	if err != nil {
		t.Fatal(err)
	}
	if got := base.MerchantRule.Restriction; got != "allowlist" {
		t.Fatalf("restriction defaults to %q, want allowlist", got)
	}
	t.Run("untouched rules are preserved", func(t *testing.T) {
		c, err := MergeConstraint(base, []byte(`{"spendingRule": {"utilizationLimit": {"preset": "weekly"}}}`), "", now, cat)
		if err != nil {
			t.Fatal(err)
		}
		l := c.SpendingRule.UtilizationLimit
		if l.Preset != "weekly" || l.LimitAmount.AmountCents != 5000 || l.Timezone != "Europe/London" {
			t.Fatalf("limit = %+v", l)
		}
		if c.CountryRule == nil || c.CountryRule.Restriction != "blacklist" ||
			c.SpendingRule.TransactionSizeLimit.Maximum == nil {
			t.Fatalf("merge lost other rules: %+v", c)
		}
		if base.SpendingRule.UtilizationLimit.Preset != "monthly" {
			t.Fatal("merge changed the base constraint")
		}
	})
	t.Run("null removes at every level", func(t *testing.T) {
		c, err := MergeConstraint(base, []byte(`{"countryRule": null,
			"spendingRule": {"transactionSizeLimit": {"minimum": null}, "utilizationLimit": {"timezone": null}}}`), "", now, cat)
		if err != nil {
			t.Fatal(err)
		}
		if c.CountryRule != nil || c.SpendingRule.TransactionSizeLimit.Minimum != nil ||
			c.SpendingRule.UtilizationLimit.Timezone != "" {
			t.Fatalf("nulls not removed: %+v", c)
		}
		if c.SpendingRule.TransactionSizeLimit.Maximum == nil || c.MerchantRule == nil {
			t.Fatalf("removed too much: %+v", c)
		}
	})
	t.Run("a rule added by a patch must be whole", func(t *testing.T) {
		_, err := MergeConstraint(base, []byte(`{"merchantCategoryCodeRule": {"restriction": "blacklist"}}`), "", now, cat)
		e, ok := kernel.AsError(err)
		if !ok || e.Details["/merchantCategoryCodeRule/merchantCategoryCodes"] != "required" {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("problems are keyed by JSON pointer", func(t *testing.T) {
		_, err := MergeConstraint(
			base,
			[]byte(
				`{"spendingRule": {"utilizationLimitV2": [{"limitAmount": {"amountCents": 1.5}, "preset": "hourly"}]}, "extra": 1}`,
			),
			"/spendingConstraint",
			now,
			cat,
		)
		e, ok := kernel.AsError(err)
		if !ok {
			t.Fatalf("err = %v", err)
		}
		for _, k := range []string{"/spendingConstraint/extra",
			"/spendingConstraint/spendingRule/utilizationLimitV2/0/limitAmount/amountCents"} {
			if e.Details[k] == "" {
				t.Fatalf("details %v lack %s", e.Details, k)
			}
		}
	})
}
