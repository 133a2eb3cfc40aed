package checker_test

import "testing"

// TestInformationRequestsAgainstContacts: a request sent before its
// contact was added is reported at its line.
func TestInformationRequestsAgainstContacts(t *testing.T) {
	expectPlanted(t, `informationRequests:
  - {contactId: le_c_v, requesterName: U, sentAt: -101d, # planted
     requestedInformation: {destinationTypes: [bank_account]}}
`, "informationRequest.beforeContact", "informationRequest.beforeContact", "before contact le_c_v (V) was added")
}
