package deliveries

import (
	"fmt"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// endpointHistory lists an endpoint's deliveries in the order they were
// made (newest first with req.Desc), keeping those keep accepts (all when
// keep is nil): its queue and its finished deliveries, two ranges of
// IndexDeliveryWebhook, merged by sequence. A page's cursor is the entry
// of its last delivery, in either range; the next page goes on after that
// place in both.
func endpointHistory(
	op *kernel.Op,
	webhookID string,
	req kernel.PageRequest,
	keep func(*WebhookDelivery) bool,
) (kernel.Page[WebhookDelivery], error) {
	queued := queuePrefix(webhookID)
	finished := kernel.IndexPrefix(IndexDeliveryWebhook, webhookID, stateFinished)
	place := ""
	switch {
	case req.After == "":
	case kernel.ValidCursorKey(req.After, queued):
		place = req.After[len(queued):]
	case kernel.ValidCursorKey(req.After, finished):
		place = req.After[len(finished):]
	default:
		return kernel.Page[WebhookDelivery]{}, kernel.InvalidField("cursor", "does not belong to this list")
	}
	size := req.Size
	if size <= 0 {
		size = kernel.PageSize
	}
	ranges := [2]kernel.Page[WebhookDelivery]{}
	for i, prefix := range []string{queued, finished} {
		r := kernel.PageRequest{Desc: req.Desc, Size: size}
		if place != "" {
			r.After = prefix + place
		}
		var err error
		if ranges[i], err = kernel.List(op, KindDelivery, prefix, r, keep); err != nil {
			return kernel.Page[WebhookDelivery]{}, err
		}
	}
	a, b := ranges[0].Items, ranges[1].Items
	page := kernel.Page[WebhookDelivery]{Items: make([]WebhookDelivery, 0, min(size, len(a)+len(b)))}
	for len(page.Items) < size && (len(a) > 0 || len(b) > 0) {
		if len(b) == 0 || (len(a) > 0 && (a[0].Seq < b[0].Seq) != req.Desc) {
			page.Items, a = append(page.Items, a[0]), a[1:]
		} else {
			page.Items, b = append(page.Items, b[0]), b[1:]
		}
	}
	if len(a) > 0 || len(b) > 0 || ranges[0].Next != "" || ranges[1].Next != "" {
		last := &page.Items[len(page.Items)-1]
		page.Next = Indexes(last)[0]
	}
	return page, nil
}

// UpgradeIndexes rewrites the index entries of every delivery when the
// store holds them as versions before the queue and the history of an
// endpoint shared one index wrote them: a delivery.queue entry for each
// unfinished delivery, and a delivery.webhook entry without a range for
// every one. It is one of the steps a world takes when it adopts a data
// file or a snapshot (kernel.Wiring.Upgrades).
func UpgradeIndexes(op *kernel.Op) error {
	old := false
	err := op.Tx.Scan(kernel.IndexPrefix(retiredDeliveryQueue), "", false, func(string, string) bool {
		old = true
		return false
	})
	if err != nil {
		return err
	}
	history := kernel.IndexPrefix(IndexDeliveryWebhook)
	err = op.Tx.Scan(history, "", false, func(k, _ string) bool {
		_, rest, _ := strings.Cut(k[len(history):], store.Sep) // after the endpoint
		state, _, _ := strings.Cut(rest, store.Sep)
		old = state != stateQueued && state != stateFinished
		return false
	})
	if err != nil || !old {
		return err
	}
	for _, prefix := range []string{kernel.IndexPrefix(retiredDeliveryQueue), history,
		kernel.IndexPrefix(IndexDeliveryDue)} {
		if err := op.Tx.DeletePrefix(prefix); err != nil {
			return err
		}
	}
	req := kernel.PageRequest{Size: 1000}
	for {
		page, err := kernel.ListRecords[WebhookDelivery](op, KindDelivery, req, nil)
		if err != nil {
			return err
		}
		for i := range page.Items {
			d := &page.Items[i]
			if err := op.Save(KindDelivery, d.ID, d, Indexes(d)...); err != nil {
				return fmt.Errorf("upgrade the index entries of delivery %s: %w", d.ID, err)
			}
		}
		if page.Next == "" {
			return nil
		}
		req.After = page.Next
	}
}
