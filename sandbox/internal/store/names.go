package store

import (
	"bytes"
	"fmt"
	"sync"
)

// The stored form of a value Put writes is its JSON with the object keys
// named in storedNames written as two bytes: a mark, 0x01 to 0x08, and a
// second byte, which together give the name's index in storedNames
// ((mark-1)*256 + byte). "legalEntityId": (16 bytes) takes 2. The JSON
// encoder writes no byte below 0x20 (it escapes them in strings, and
// writes no whitespace), so the marks cannot be mistaken for anything
// else, and a value written before the names were compacted, or a name not
// in the list, reads as it is: old data files and snapshots need no
// conversion. Decoding expands the names back to the exact JSON the
// encoder wrote, so every value decodes as it did.
//
// A record of a generated transaction is 610 bytes of JSON, 230 of them
// names; compacted it is about 400 bytes, which is 20 MB less in a world of
// 100,000 transactions.

// storedNames are the compacted names: those the records of the demo and
// bench/big.yaml worlds use, most of their bytes first. Data files hold
// their indexes, so the list may only grow: never reorder or remove a name.
var storedNames = [...]string{
	"description", "providerAuthorizationId", "virtualAccountId", "detailedStatus", "accountSubtype",
	"legalEntityId", "amountCents", "categoryCode", "merchantData", "authorizedAt", "approvalReason",
	"createdAt", "accountId", "category", "status", "location", "country", "cardId", "date", "state",
	"seq", "city", "id", "referenceNumber", "zip", "counterpartyBank", "companyDiscretionaryData",
	"companyEntryDescription", "paymentRelatedInfo", "entryClassCode", "traceNumber", "payload",
	"receiverId", "businessFunctionCode", "companyId", "achInfo", "senderReference", "memo", "kind",
	"transactionId", "summary", "subtypeCode", "declineReason", "ranAt", "typeCode", "wireInfo", "at",
	"imad", "omad", "relatedId", "invoiceId", "subject", "invoice", "links", "cardGroupId", "html",
	"text", "to", "cc", "name", "entityId", "eventId", "source", "currency", "collectedCents",
	"webhookId", "event", "accountNumber", "priceCents", "submittedByUserId", "routingNumber",
	"timezone", "attempts", "customerId", "contentType", "cardProductId", "type", "addressCountry",
	"lastUpdatedAt", "transactionDate", "documentId", "lineItems", "seriesId", "quantity",
	"isSingleUse", "expiryMonth", "addressState", "detailsId", "scheduledSendDate", "number",
	"pendingCredits", "isPhysical", "expiryYear", "addressCity", "addressLine", "issuedAt",
	"filename", "lastReminderAt", "billedTo", "email", "pendingDebits", "addressZip", "order",
	"version", "recipientLegalName", "address", "body", "originatorUserId", "sentAt",
	"spendingConstraint", "assigneeUserIds", "expenseReportId", "events", "dueAt", "recipientType",
	"symbol", "micros", "noReceiptReason", "recipientEmail", "requestHeaders", "merchantName", "size",
	"destinationId", "restriction", "primaryVirtualAccountId", "updatedAt", "posted",
	"utilizationLimit", "accountOwnerName", "submittedAt", "limitAmount", "merchantCategoryRule",
	"requestBody", "institutionName", "timestamp", "spendingRule", "merchantV2Id",
	"merchantCategories", "primary", "spend", "due", "contactId", "institutionId", "latencyMs",
	"succeeded", "reviewedByUserId", "pan", "cvv", "readOnly", "latestStatus", "balanceCents",
	"userId", "accountName", "baseKey", "achSettlementBusinessDays", "startDate", "taskId", "preset",
	"accountType", "cardGroupModel", "bankName", "commercial", "reviewedAt", "senderName",
	"transactionSizeLimit", "cryptoOfframp", "active", "error", "data", "reference", "subtype", "url",
	"decision", "paymentTermsDays", "enterprise", "transactionType", "trackingNumber", "role",
	"structure", "recurrenceRule", "key", "v2Enabled", "review", "recipientName", "paymentMethod",
	"nextScheduledDate", "closedAt", "endCondition", "transactions", "pendingInvoiceId",
	"merchantCategoryCodeRule", "mask", "roles", "occurrences", "defaultPaymentTermsDays",
	"countryRule", "merchantCategoryCodes", "handle", "requestedInformation", "informationRequestId",
	"invoiceTz", "countries", "utilizationLimitV2", "achDebitRecurring", "template", "scenario",
	"interval", "destinationTypes", "creditLimitCents", "customMerchantId", "maximum",
	"rejectionReason", "agentRequestId", "customMetadata", "prices", "paidAt", "requesterName",
	"paymentScheme", "addedByUserId", "lastDate", "merchantRule", "invoiceTerms", "Content-Type",
	"sentToEmail", "bankCountry", "start", "companyName", "defaultMemo", "fxRateToUsd", "expiryEvent",
	"deliveryId", "secureForm", "transferId", "dayOfMonth", "costCenter", "send", "ibanLast4",
	"dayOfWeek", "mode", "messageId", "iban", "uetr", "seed", "modifiers", "expiresAt", "merchants",
	"formToken", "tick", "userData", "sepaInfo", "speiInfo", "sortCode", "ccEmails", "released",
	"sections", "pausedAt", "now", "display", "minimum", "fpsInfo", "pixInfo", "nextAttemptAt",
	"apiKey", "method", "header", "retryEventId", "swift", "count", "clabe", "last4", "chain",
	"route", "value", "crmId", "phone", "title", "note", "path", "bic", "PASS", "ok",
}

// nameCodes is each compacted name's index in storedNames.
var nameCodes = func() map[string]uint16 {
	if len(storedNames) > maxNames {
		panic("store: more storedNames than two bytes name")
	}
	m := make(map[string]uint16, len(storedNames))
	for i, n := range storedNames {
		if _, dup := m[n]; dup {
			panic(fmt.Sprintf("store: %q is in storedNames twice", n))
		}
		m[n] = uint16(i)
	}
	return m
}()

// maxNames is how many names two bytes can name: the marks stop below
// the tab, so that whitespace is never read as a mark.
const maxNames = 8 * 256

// compactNames rewrites JSON in place into the stored form and returns it.
func compactNames(b []byte) []byte {
	w := 0
	for r := 0; r < len(b); {
		if b[r] != '"' {
			b[w] = b[r]
			w, r = w+1, r+1
			continue
		}
		end := stringEnd(b, r+1)
		if end < 0 {
			return b[:w+copy(b[w:], b[r:])]
		}
		if end+1 < len(b) && b[end+1] == ':' {
			if code, ok := nameCodes[string(b[r+1:end])]; ok {
				b[w], b[w+1] = byte(code>>8)+1, byte(code)
				w, r = w+2, end+2
				continue
			}
		}
		w += copy(b[w:], b[r:end+1])
		r = end + 1
	}
	return b[:w]
}

// stringEnd is the index of the quote that ends the JSON string starting
// at from (just after its opening quote), or -1.
func stringEnd(b []byte, from int) int {
	for i := from; ; {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return -1
		}
		i += q
		escapes := 0
		for j := i - 1; j >= from && b[j] == '\\'; j-- {
			escapes++
		}
		if escapes%2 == 0 {
			return i
		}
		i++
	}
}

// AppendName appends an object name and its colon in the stored form: two
// bytes for a name of storedNames, else the name quoted as JSON writes a
// name that needs no escaping.
func AppendName(dst []byte, name string) []byte {
	if code, ok := nameCodes[name]; ok {
		return append(dst, byte(code>>8)+1, byte(code))
	}
	dst = append(dst, '"')
	dst = append(dst, name...)
	return append(dst, '"', ':')
}

// ExpandNames is the JSON a stored value holds.
func ExpandNames(raw string) string { return string(expandNames(nil, raw)) }

// CompactNames is the stored form of JSON as json.Marshal writes it.
func CompactNames(js []byte) string { return string(compactNames(bytes.Clone(js))) }

// expandNames appends the JSON of a stored value to dst.
func expandNames(dst []byte, raw string) []byte {
	for {
		i := markAt(raw)
		if i < 0 {
			return append(dst, raw...)
		}
		dst = append(dst, raw[:i]...)
		if i+1 == len(raw) {
			return append(dst, raw[i])
		}
		if code := int(raw[i]-1)<<8 | int(raw[i+1]); raw[i] > 0 && code < len(storedNames) {
			dst = append(dst, '"')
			dst = append(dst, storedNames[code]...)
			dst = append(dst, '"', ':')
		} else {
			dst = append(dst, raw[i:i+2]...)
		}
		raw = raw[i+2:]
	}
}

// markAt is the index of the first byte of s below 0x20, or -1.
func markAt(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 {
			return i
		}
	}
	return -1
}

// expanders are buffers for decoding; one that grew past 64 KiB is dropped.
var expanders = sync.Pool{New: func() any { return new([]byte) }}
