package devapps

import "github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"

// prefixDevApp starts every developer application id.
const prefixDevApp = "developer_app_"

// Kinds are the kinds of record and id prefixes of developer applications
// and OAuth, as the engine is wired with them: clients, codes and tokens
// are keyed by their own secrets.
var Kinds = []kernel.Kind{
	{Name: kindDevApp, Prefix: prefixDevApp},
	{Name: kindOAuthClient},
	{Name: kindOAuthCode},
	{Name: kindOAuthToken},
}
