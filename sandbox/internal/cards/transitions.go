package cards

import (
	"fmt"
	"slices"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// CheckTransition says whether a card may go from one status to another,
// as Slash's help center describes them: an active card is paused and
// unpaused at will; any card that is not closed can be closed; an inactive
// card (deactivated by Slash: a plan with fewer cards, a frozen account)
// can be reactivated; a closed card is final and cannot be reopened.
// Setting the status a card already has changes nothing and is allowed.
// A refusal is a 400 on /status that names the transition and the reason.
func CheckTransition(cardID, from, to string) error {
	if from == to || !slices.Contains(Statuses, to) {
		return nil
	}
	var why string
	switch {
	case from == StatusClosed:
		why = "a closed card cannot be reopened; issue a new card instead"
	case to == StatusInactive:
		why = "a card becomes inactive only when Slash deactivates it; pause it instead"
	case from == StatusInactive && to == StatusPaused:
		why = "an inactive card is reactivated to active, not paused"
	default:
		return nil
	}
	return kernel.InvalidField("/status", fmt.Sprintf("card %s cannot go from %s to %s: %s", cardID, from, to, why))
}
