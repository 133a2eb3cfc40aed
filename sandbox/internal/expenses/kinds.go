package expenses

import "github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"

// Kinds are the kinds of record and id prefixes of expense reports and
// tasks, as the engine is wired with them: a review's id names no record
// of its own.
var Kinds = []kernel.Kind{
	{Name: KindReport, Prefix: PrefixReport},
	{Prefix: PrefixReview},
	{Name: KindUserBankAccount, Prefix: PrefixUserBankAccount},
	{Name: KindCustomMerchant, Prefix: PrefixCustomMerchant},
	{Name: KindTask, Prefix: PrefixTask},
}
