package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/expenses"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
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
	TransactionDate       string             `json:"transactionDate" format:"date-time"`
	MerchantV2ID          string             `json:"merchantV2Id,omitempty"`
	CustomMerchantID      string             `json:"customMerchantId,omitempty"`
	Memo                  *string            `json:"memo,omitempty"`
	DestinationID         string             `json:"destinationId"`
	SubmittedAt           string             `json:"submittedAt" format:"date-time"`
	Status                string             `json:"status" ref:"ExpenseReportStatus"`
	Timestamp             string             `json:"timestamp" format:"date-time"`
	FxRateToUsd           *string            `json:"fxRateToUsd,omitempty"`
	FxRateUpdatedAt       string             `json:"fxRateUpdatedAt,omitempty" format:"date-time"`
	NoReceiptReason       string             `json:"noReceiptReason,omitempty"`
	Merchant              *expenseMerchant   `json:"merchant,omitempty"`
	Documents             []documentLink     `json:"documents,omitempty"`
	AggregatedTransaction *transactionBrief  `json:"aggregatedTransaction,omitempty"`
	Destination           *sourceBrief       `json:"destination,omitempty"`
	SubmittedByUser       *userSummary       `json:"submittedByUser,omitempty"`
	ReviewedByUser        *userSummary       `json:"reviewedByUser,omitempty"`
	Review                *expenseReviewView `json:"review,omitempty"`
}

// expenseMerchant is ExpenseReportMerchant: a catalogue merchant or the
// legal entity's own.
type expenseMerchant struct {
	Type           string              `json:"type" enum:"merchantV2,customMerchant"`
	MerchantV2     *merchantV2View     `json:"merchantV2,omitempty"`
	CustomMerchant *customMerchantView `json:"customMerchant,omitempty"`
}

type customMerchantView struct {
	ID            string `json:"id"`
	LegalEntityID string `json:"legalEntityId"`
	AddedByUserID string `json:"addedByUserId"`
	MerchantName  string `json:"merchantName"`
	Timestamp     string `json:"timestamp" format:"date-time"`
}

type documentLink struct {
	Document documentView `json:"document"`
	URL      string       `json:"url"`
}

// documentView is Document.IDocumentModel.
type documentView struct {
	Entity         string       `json:"$entity" enum:"document"`
	ID             string       `json:"id"`
	AccountType    string       `json:"accountType" enum:"expenseReport"`
	AccountID      string       `json:"accountId"`
	StartDate      string       `json:"startDate"`
	EndDate        string       `json:"endDate"`
	Filename       string       `json:"filename,omitempty"`
	Status         string       `json:"status"`
	Checksum       string       `json:"checksum,omitempty"`
	AccessLevel    string       `json:"accessLevel"`
	DocumentType   string       `json:"documentType"`
	Category       string       `json:"category" enum:"document,statement"`
	DocumentSource string       `json:"documentSource"`
	FileMetadata   fileMetadata `json:"fileMetadata"`
	Timestamp      string       `json:"timestamp"`
}

type fileMetadata struct {
	Size int64  `json:"size"`
	Type string `json:"type"`
}

type money2 struct {
	AmountCents int64  `json:"amount_cents"`
	Currency    string `json:"currency" enum:"USD"`
}

type transactionBrief struct {
	ID     string `json:"id"`
	Date   string `json:"date"`
	Amount money2 `json:"amount"`
	Status string `json:"status" enum:"pending,pending_approval,settled,failed,refund,declined,dispute,canceled,returned,reversed,scheduled,in_review"`
}

type sourceBrief struct {
	ID              string      `json:"id"`
	AccountName     string      `json:"accountName"`
	Mask            string      `json:"mask,omitempty"`
	Institution     institution `json:"institution"`
	InstitutionLogo string      `json:"institutionLogo,omitempty"`
}

type institution struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type userSummary struct {
	ID   string     `json:"id"`
	Name personName `json:"name"`
}

type personName struct {
	First string `json:"first"`
	Last  string `json:"last"`
	Full  string `json:"full"`
}

type expenseReviewView struct {
	ID               string  `json:"id"`
	ExpenseReportID  string  `json:"expenseReportId"`
	Decision         string  `json:"decision" enum:"approved,rejected"`
	ReviewedByUserID string  `json:"reviewedByUserId"`
	ReviewedAt       string  `json:"reviewedAt" format:"date-time"`
	RejectionReason  *string `json:"rejectionReason,omitempty"`
	Timestamp        string  `json:"timestamp" format:"date-time"`
}

// merchantV2View is Merchant.MerchantV2 of a catalogue merchant.
type merchantV2View struct {
	Entity             string       `json:"$entity" enum:"merchant_v2"`
	ID                 string       `json:"id"`
	Name               string       `json:"name"`
	URL                string       `json:"url,omitempty"`
	IsLive             bool         `json:"isLive"`
	IsInstantCashback  bool         `json:"isInstantCashback"`
	MerchantCategoryID string       `json:"merchantCategoryId,omitempty"`
	Metadata           metadataView `json:"metadata"`
}

// metadataView is IMetadataModel.
type metadataView struct {
	Timestamp string `json:"timestamp" format:"date-time"`
}

func merchantV2Of(m *fixtures.Merchant) merchantV2View {
	return merchantV2View{
		Entity:             "merchant_v2",
		ID:                 m.ID,
		Name:               m.Name,
		URL:                m.URL,
		IsLive:             true,
		MerchantCategoryID: m.CategoryID,
		Metadata:           metadataView{Timestamp: catalogueTimestamp},
	}
}

func summaryOf(u *kernel.User) *userSummary {
	if u == nil {
		return nil
	}
	first, last, _ := strings.Cut(u.Name, " ")
	return &userSummary{ID: u.ID, Name: personName{First: first, Last: last, Full: u.Name}}
}

func expenseReportOf(op *kernel.Op, r *http.Request, er *expenses.Report) (expenseReportView, error) {
	v := expenseReportView{
		ID:                er.ID,
		LegalEntityID:     er.LegalEntityID,
		SubmittedByUserID: er.SubmittedByUserID,
		AmountCents:       er.AmountCents,
		Currency:          er.Currency,
		TransactionDate:   timestamp(er.TransactionDate),
		MerchantV2ID:      er.MerchantV2ID,
		CustomMerchantID:  er.CustomMerchantID,
		Memo:              er.Memo,
		DestinationID:     er.DestinationID,
		SubmittedAt:       timestamp(er.SubmittedAt),
		Status:            er.Status,
		Timestamp:         timestamp(er.Timestamp),
		FxRateToUsd:       er.FxRateToUsd,
		NoReceiptReason:   er.NoReceiptReason,
	}
	if er.FxRateUpdatedAt != nil {
		v.FxRateUpdatedAt = timestamp(*er.FxRateUpdatedAt)
	}
	x, err := expenses.ExpenseReportDetailsOf(op, er)
	if err != nil {
		return v, err
	}
	if x.Merchant != nil {
		m := merchantV2Of(x.Merchant)
		v.Merchant = &expenseMerchant{Type: "merchantV2", MerchantV2: &m}
	}
	if cm := x.CustomMerchant; cm != nil {
		v.Merchant = &expenseMerchant{Type: "customMerchant", CustomMerchant: &customMerchantView{ID: cm.ID,
			LegalEntityID: cm.LegalEntityID, AddedByUserID: cm.AddedByUserID, MerchantName: cm.MerchantName,
			Timestamp: timestamp(cm.CreatedAt)}}
	}
	for i := range x.Documents {
		d := &x.Documents[i]
		v.Documents = append(v.Documents,
			documentLink{Document: documentOf(d, er.ID), URL: absURL(r, kernel.SandboxPath(op.W.ID, "/documents/"+d.ID))})
	}
	if t := x.Transaction; t != nil {
		v.AggregatedTransaction = &transactionBrief{
			ID:     t.ID,
			Date:   timestamp(t.Date),
			Amount: money2{AmountCents: t.AmountCents, Currency: "USD"},
			Status: t.DetailedStatus,
		}
	}
	if b := x.Destination; b != nil {
		v.Destination = &sourceBrief{ID: b.ID, AccountName: b.AccountName, Mask: b.Mask, InstitutionLogo: b.InstitutionLogo,
			Institution: institution{ID: b.InstitutionID, Name: b.InstitutionName}}
	}
	v.SubmittedByUser, v.ReviewedByUser = summaryOf(x.Submitter), summaryOf(x.Reviewer)
	if rv := er.Review; rv != nil {
		v.Review = &expenseReviewView{
			ID:               rv.ID,
			ExpenseReportID:  er.ID,
			Decision:         rv.Decision,
			ReviewedByUserID: rv.ReviewedByUserID,
			ReviewedAt:       timestamp(rv.ReviewedAt),
			RejectionReason:  rv.RejectionReason,
			Timestamp:        timestamp(rv.ReviewedAt),
		}
	}
	return v, nil
}

func documentOf(d *invoices.Document, reportID string) documentView {
	at := timestamp(d.CreatedAt)
	return documentView{
		Entity:         "document",
		ID:             d.ID,
		AccountType:    "expenseReport",
		AccountID:      reportID,
		StartDate:      at,
		EndDate:        at,
		Filename:       d.Filename,
		Status:         "uploaded",
		Checksum:       d.Checksum,
		AccessLevel:    "private",
		DocumentType:   d.Type,
		Category:       "document",
		DocumentSource: d.Source,
		FileMetadata:   fileMetadata{Size: d.Size, Type: d.ContentType},
		Timestamp:      at,
	}
}

// reimbursementSource is ReimbursementSource: IUserBankAccountModel and
// institutionLogo.
type reimbursementSource struct {
	ID               string       `json:"id"`
	UserID           string       `json:"userId"`
	LatestStatus     string       `json:"latestStatus"`
	LastSyncedAt     string       `json:"lastSyncedAt,omitempty"`
	AccountName      string       `json:"accountName"`
	AccountOwnerName string       `json:"accountOwnerName,omitempty"`
	Type             string       `json:"type"`
	Subtype          string       `json:"subtype"`
	Mask             string       `json:"mask,omitempty"`
	Balance          *bankBalance `json:"balance,omitempty"`
	Institution      institution  `json:"institution"`
	Metadata         metadataView `json:"metadata"`
	Error            *bankError   `json:"error,omitempty"`
	InstitutionLogo  string       `json:"institutionLogo,omitempty"`
}

type bankBalance struct {
	Amount               money2 `json:"amount"`
	LastBalanceCheckDate string `json:"lastBalanceCheckDate"`
}

// bankError says why reimbursements to a bank account fail.
type bankError struct {
	ErrorCode     string `json:"errorCode"`
	ErrorType     string `json:"errorType"`
	ActionMessage string `json:"actionMessage"`
}

func reimbursementSourceOf(b *expenses.UserBankAccount) reimbursementSource {
	at := timestamp(b.CreatedAt)
	v := reimbursementSource{
		ID:               b.ID,
		UserID:           b.UserID,
		LatestStatus:     b.Status,
		LastSyncedAt:     at,
		AccountName:      b.AccountName,
		AccountOwnerName: b.AccountOwnerName,
		Type:             b.Type,
		Subtype:          b.Subtype,
		Mask:             b.Mask,
		InstitutionLogo:  b.InstitutionLogo,
		Institution:      institution{ID: b.InstitutionID, Name: b.InstitutionName},
		Metadata:         metadataView{Timestamp: at},
		Balance: &bankBalance{
			Amount:               money2{AmountCents: b.BalanceCents, Currency: "USD"},
			LastBalanceCheckDate: at,
		},
	}
	if b.Status != "active" {
		v.Error = &bankError{ErrorCode: "ACCOUNT_" + strings.ToUpper(b.Status), ErrorType: "ITEM_ERROR",
			ActionMessage: "Reconnect this bank account: reimbursements to it fail until it is active again."}
	}
	return v
}
