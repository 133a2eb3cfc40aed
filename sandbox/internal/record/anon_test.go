package record

import (
	"regexp"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

func TestFakesAreTheSameForTheSameSeedAndValue(t *testing.T) {
	a, b := newAnonymizer(7, false), newAnonymizer(7, false)
	b.company("Globex Logistics LLC") // another value first: order does not matter
	if x, y := a.company("Acme Robotics Inc."), b.company("Acme Robotics Inc."); x != y || x == "Acme Robotics Inc." {
		t.Errorf("same seed: %q and %q", x, y)
	}
	if newAnonymizer(8, false).person("Alice Chen") == a.person("Alice Chen") {
		t.Error("another seed made the same fake")
	}
	if a.email("ap@northwind.test") == a.email("billing@bluefin.test") {
		t.Error("two emails got one fake")
	}
}

func TestFakesKeepTheShape(t *testing.T) {
	a := newAnonymizer(1, false)
	phone := a.digits("phone", "+1 415 555 0100")
	if !regexp.MustCompile(`^\+\d \d{3} \d{3} \d{4}$`).MatchString(phone) || phone == "+1 415 555 0100" {
		t.Errorf("phone %q", phone)
	}
	if r := a.routing("021000021"); !parties.RoutingNumberValid(r) || r == "021000021" {
		t.Errorf("routing %q", r)
	}
	if iban := a.alnum("iban", "DE89370400440532013000", 2); len(iban) != 22 || iban[:2] != "DE" ||
		!regexp.MustCompile(`^DE\d{20}$`).MatchString(iban) {
		t.Errorf("iban %q", iban)
	}
	if e := a.email("ap@northwind.test"); !regexp.MustCompile(`^[a-z.]+@example\.com$`).MatchString(e) {
		t.Errorf("email %q", e)
	}
	ad := a.address(&scenario.Address{AddressLine: "500 Market St", AddressCity: "San Francisco",
		AddressState: "CA", AddressZip: "94105", AddressCountry: "US"})
	if ad.AddressLine == "500 Market St" || ad.AddressCity == "" || ad.AddressZip == "" || ad.AddressCountry != "US" ||
		ad.AddressLine2 != "" {
		t.Errorf("address %+v", ad)
	}
}

func TestFreeTextLosesTheNamesReplaced(t *testing.T) {
	a := newAnonymizer(1, false)
	bob := a.person("Bob Martinez")
	acme := a.company("Acme Robotics Inc.")
	got := a.text("Reimbursement to Bob Martinez; Bob travel; Bobcat rental; Acme Operating")
	want := "Reimbursement to " + bob + "; " + regexp.MustCompile(` .*`).ReplaceAllString(bob, "") +
		" travel; Bobcat rental; " + regexp.MustCompile(` .*`).ReplaceAllString(acme, "") + " Operating"
	if got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
}

func TestKeepKeepsEverything(t *testing.T) {
	a := newAnonymizer(1, true)
	ad := &scenario.Address{AddressLine: "1 Initech Way"}
	if a.person("Alice Chen") != "Alice Chen" || a.company("Initech") != "Initech" || a.address(ad) != ad ||
		a.digits("phone", "+1 415") != "+1 415" || a.text("Alice travel") != "Alice travel" {
		t.Error("keep replaced something")
	}
}

func TestRailDetailsLoseTheOtherParty(t *testing.T) {
	a := newAnonymizer(1, false)
	d := map[string]any{"senderName": "Business and Legal Resources", "description": "Pagamento",
		"reference": "From Business and Legal Resources", "iban": "DE89370400440532013000", "bic": "COBADEFFXXX",
		"routingNumber": "021000021", "traceNumber": "633420646053142"}
	a.railDetails(d, false)
	a.railDetails(d, true)
	sender := d["senderName"].(string)
	if sender == "Business and Legal Resources" || d["reference"] != "From "+sender ||
		d["iban"] == "DE89370400440532013000" || !parties.RoutingNumberValid(d["routingNumber"].(string)) {
		t.Errorf("details %v", d)
	}
	if d["bic"] != "COBADEFFXXX" || d["traceNumber"] != "633420646053142" || d["description"] != "Pagamento" {
		t.Errorf("a bank's or the network's own value changed: %v", d)
	}
}
