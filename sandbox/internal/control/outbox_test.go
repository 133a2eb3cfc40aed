package control_test

import (
	"net/url"
	"reflect"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// TestOutboxMessageByID: GET /_sandbox/outbox/{id} answers each email as
// the outbox list shows it, in another world through that world's path,
// and an id the world never sent is a second-generation 404.
func TestOutboxMessageByID(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	sent := apitest.Outbox(t, e, url.Values{})
	if len(sent) < 2 {
		t.Fatalf("the demo world has sent %d emails, want several", len(sent))
	}
	for _, m := range sent[:2] {
		var one client.Message
		e.Get("/_sandbox/outbox/"+m.ID, "", "").Status(t, 200).Decode(t, &one)
		if !reflect.DeepEqual(one, m) {
			t.Fatalf("GET /_sandbox/outbox/%s = %+v, the list shows %+v", m.ID, one, m)
		}
	}
	apitest.CreateWorld(t, e, `{"id":"other","scenario":"empty"}`)
	e.Get("/_sandbox/worlds/other/outbox/"+sent[0].ID, "", "").Gen2(t, 404, "not_found")
	e.Get("/_sandbox/outbox/msg_nope", "", "").Gen2(t, 404, "not_found")
}
