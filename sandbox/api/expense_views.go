package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
	"github.com/slash-sandbox/slash-sandbox/sandbox"
)

// receiptURLLifetime is how long the url of an uploaded receipt is said
// to be valid (the sandbox serves it for as long as the world lives).
const receiptURLLifetime = time.Hour

// catalogueTimestamp dates the fixtures catalogue's merchants.
var catalogueTimestamp = timestamp(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))

// expenseReportView is PublicExpenseReportWithMetadata.
type expenseReportView struct {
	ID                    string             `json:"id"`
	LegalEntityID         string             `json:"legalEntityId"`
	SubmittedByUserID     string             `json:"submittedByUserId"`
	AmountCents           int64              `json:"amountCents"`
	Currency              string             `json:"currency"`
	TransactionDate       string             `json:"transactionDate"`
	MerchantV2ID          string             `json:"merchantV2Id,omitempty"`
	CustomMerchantID      string             `json:"customMerchantId,omitempty"`
	Memo                  *string            `json:"memo,omitempty"`
	DestinationID         string             `json:"destinationId"`
	SubmittedAt           string             `json:"submittedAt"`
	Status                string             `json:"status"`
	Timestamp             string             `json:"timestamp"`
	FxRateToUsd           *string            `json:"fxRateToUsd,omitempty"`
	FxRateUpdatedAt       string             `json:"fxRateUpdatedAt,omitempty"`
	NoReceiptReason       string             `json:"noReceiptReason,omitempty"`
	Merchant              map[string]any     `json:"merchant,omitempty"`
	Documents             []documentLink     `json:"documents,omitempty"`
	AggregatedTransaction *transactionBrief  `json:"aggregatedTransaction,omitempty"`
	Destination           *sourceBrief       `json:"destination,omitempty"`
	SubmittedByUser       *userSummary       `json:"submittedByUser,omitempty"`
	ReviewedByUser        *userSummary       `json:"reviewedByUser,omitempty"`
	Review                *expenseReviewView `json:"review,omitempty"`
}

type documentLink struct {
	Document documentView `json:"document"`
	URL      string       `json:"url"`
}

// documentView is Document.IDocumentModel.
type documentView struct {
	Entity         string         `json:"$entity"`
	ID             string         `json:"id"`
	AccountType    string         `json:"accountType"`
	AccountID      string         `json:"accountId"`
	StartDate      string         `json:"startDate"`
	EndDate        string         `json:"endDate"`
	Filename       string         `json:"filename,omitempty"`
	Status         string         `json:"status"`
	Checksum       string         `json:"checksum,omitempty"`
	AccessLevel    string         `json:"accessLevel"`
	DocumentType   string         `json:"documentType"`
	Category       string         `json:"category"`
	DocumentSource string         `json:"documentSource"`
	FileMetadata   map[string]any `json:"fileMetadata"`
	Timestamp      string         `json:"timestamp"`
}

type money2 struct {
	AmountCents int64  `json:"amount_cents"`
	Currency    string `json:"currency"`
}

type transactionBrief struct {
	ID     string `json:"id"`
	Date   string `json:"date"`
	Amount money2 `json:"amount"`
	Status string `json:"status"`
}

type sourceBrief struct {
	ID              string            `json:"id"`
	AccountName     string            `json:"accountName"`
	Mask            string            `json:"mask,omitempty"`
	Institution     map[string]string `json:"institution"`
	InstitutionLogo string            `json:"institutionLogo,omitempty"`
}

type userSummary struct {
	ID   string            `json:"id"`
	Name map[string]string `json:"name"`
}

type expenseReviewView struct {
	ID               string  `json:"id"`
	ExpenseReportID  string  `json:"expenseReportId"`
	Decision         string  `json:"decision"`
	ReviewedByUserID string  `json:"reviewedByUserId"`
	ReviewedAt       string  `json:"reviewedAt"`
	RejectionReason  *string `json:"rejectionReason,omitempty"`
	Timestamp        string  `json:"timestamp"`
}

// merchantV2View is Merchant.MerchantV2 of a catalogue merchant.
type merchantV2View struct {
	Entity             string            `json:"$entity"`
	ID                 string            `json:"id"`
	Name               string            `json:"name"`
	URL                string            `json:"url,omitempty"`
	IsLive             bool              `json:"isLive"`
	IsInstantCashback  bool              `json:"isInstantCashback"`
	MerchantCategoryID string            `json:"merchantCategoryId,omitempty"`
	Metadata           map[string]string `json:"metadata"`
}

func merchantV2Of(m *fixtures.Merchant) merchantV2View {
	return merchantV2View{Entity: "merchant_v2", ID: m.ID, Name: m.Name, URL: m.URL, IsLive: true, MerchantCategoryID: m.CategoryID,
		Metadata: map[string]string{"timestamp": catalogueTimestamp}}
}

func summaryOf(u *sandbox.User) *userSummary {
	if u == nil {
		return nil
	}
	first, last, _ := strings.Cut(u.Name, " ")
	return &userSummary{ID: u.ID, Name: map[string]string{"first": first, "last": last, "full": u.Name}}
}

func expenseReportOf(op *sandbox.Op, r *http.Request, er *sandbox.ExpenseReport) (expenseReportView, error) {
	v := expenseReportView{ID: er.ID, LegalEntityID: er.LegalEntityID, SubmittedByUserID: er.SubmittedByUserID, AmountCents: er.AmountCents,
		Currency: er.Currency, TransactionDate: timestamp(er.TransactionDate), MerchantV2ID: er.MerchantV2ID, CustomMerchantID: er.CustomMerchantID,
		Memo: er.Memo, DestinationID: er.DestinationID, SubmittedAt: timestamp(er.SubmittedAt), Status: er.Status,
		Timestamp: timestamp(er.Timestamp), FxRateToUsd: er.FxRateToUsd, NoReceiptReason: er.NoReceiptReason}
	if er.FxRateUpdatedAt != nil {
		v.FxRateUpdatedAt = timestamp(*er.FxRateUpdatedAt)
	}
	x, err := op.ExpenseReportDetailsOf(er)
	if err != nil {
		return v, err
	}
	if x.Merchant != nil {
		v.Merchant = map[string]any{"type": "merchantV2", "merchantV2": merchantV2Of(x.Merchant)}
	}
	if cm := x.CustomMerchant; cm != nil {
		v.Merchant = map[string]any{"type": "customMerchant", "customMerchant": map[string]string{"id": cm.ID,
			"legalEntityId": cm.LegalEntityID, "addedByUserId": cm.AddedByUserID, "merchantName": cm.MerchantName, "timestamp": timestamp(cm.CreatedAt)}}
	}
	for i := range x.Documents {
		d := &x.Documents[i]
		v.Documents = append(v.Documents, documentLink{Document: documentOf(d, er.ID), URL: absURL(r, "/_sandbox/documents/"+d.ID)})
	}
	if t := x.Transaction; t != nil {
		v.AggregatedTransaction = &transactionBrief{ID: t.ID, Date: timestamp(t.Date), Amount: money2{AmountCents: t.AmountCents, Currency: "USD"},
			Status: t.DetailedStatus}
	}
	if b := x.Destination; b != nil {
		v.Destination = &sourceBrief{ID: b.ID, AccountName: b.AccountName, Mask: b.Mask, InstitutionLogo: b.InstitutionLogo,
			Institution: map[string]string{"id": b.InstitutionID, "name": b.InstitutionName}}
	}
	v.SubmittedByUser, v.ReviewedByUser = summaryOf(x.Submitter), summaryOf(x.Reviewer)
	if rv := er.Review; rv != nil {
		v.Review = &expenseReviewView{ID: rv.ID, ExpenseReportID: er.ID, Decision: rv.Decision, ReviewedByUserID: rv.ReviewedByUserID,
			ReviewedAt: timestamp(rv.ReviewedAt), RejectionReason: rv.RejectionReason, Timestamp: timestamp(rv.ReviewedAt)}
	}
	return v, nil
}

func documentOf(d *sandbox.Document, reportID string) documentView {
	at := timestamp(d.CreatedAt)
	return documentView{Entity: "document", ID: d.ID, AccountType: "expenseReport", AccountID: reportID, StartDate: at, EndDate: at,
		Filename: d.Filename, Status: "uploaded", Checksum: d.Checksum, AccessLevel: "private", DocumentType: d.Type,
		Category: "document", DocumentSource: d.Source, FileMetadata: map[string]any{"size": d.Size, "type": d.ContentType}, Timestamp: at}
}

// reimbursementSource is ReimbursementSource: IUserBankAccountModel and
// institutionLogo.
type reimbursementSource struct {
	ID               string            `json:"id"`
	UserID           string            `json:"userId"`
	LatestStatus     string            `json:"latestStatus"`
	LastSyncedAt     string            `json:"lastSyncedAt,omitempty"`
	AccountName      string            `json:"accountName"`
	AccountOwnerName string            `json:"accountOwnerName,omitempty"`
	Type             string            `json:"type"`
	Subtype          string            `json:"subtype"`
	Mask             string            `json:"mask,omitempty"`
	Balance          map[string]any    `json:"balance,omitempty"`
	Institution      map[string]string `json:"institution"`
	Metadata         map[string]string `json:"metadata"`
	Error            map[string]string `json:"error,omitempty"`
	InstitutionLogo  string            `json:"institutionLogo,omitempty"`
}

func reimbursementSourceOf(b *sandbox.UserBankAccount) reimbursementSource {
	at := timestamp(b.CreatedAt)
	v := reimbursementSource{ID: b.ID, UserID: b.UserID, LatestStatus: b.Status, LastSyncedAt: at, AccountName: b.AccountName,
		AccountOwnerName: b.AccountOwnerName, Type: b.Type, Subtype: b.Subtype, Mask: b.Mask, InstitutionLogo: b.InstitutionLogo,
		Institution: map[string]string{"id": b.InstitutionID, "name": b.InstitutionName}, Metadata: map[string]string{"timestamp": at},
		Balance: map[string]any{"amount": money2{AmountCents: b.BalanceCents, Currency: "USD"}, "lastBalanceCheckDate": at}}
	if b.Status != "active" {
		v.Error = map[string]string{"errorCode": "ACCOUNT_" + strings.ToUpper(b.Status), "errorType": "ITEM_ERROR",
			"actionMessage": "Reconnect this bank account: reimbursements to it fail until it is active again."}
	}
	return v
}
