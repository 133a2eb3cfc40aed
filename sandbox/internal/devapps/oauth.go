package devapps

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Record kinds of developer applications and OAuth.
const (
	kindDevApp      = "developer_app"
	kindOAuthClient = "oauth_client"
	kindOAuthCode   = "oauth_code"
	kindOAuthToken  = "oauth_token"
)

// OAuth lifetimes on the world's clock.
const (
	AccessTokenTTL = time.Hour
	codeTTL        = 10 * time.Minute
	refreshTTL     = 90 * 24 * time.Hour
)

// OAuthScopes are the scopes an authorization may ask for.
var OAuthScopes = []string{"openid", "offline_access", "profile", "email", "address", "phone", "user.identity.view"}

// DeveloperAppData is a developer application's settings.
type DeveloperAppData struct {
	Description       string   `json:"description"`
	LogoURL           string   `json:"logoUrl,omitempty"`
	TermsOfServiceURL string   `json:"termsOfServiceUrl,omitempty"`
	PrivacyPolicyURL  string   `json:"privacyPolicyUrl,omitempty"`
	RedirectURIs      []string `json:"redirectUris,omitempty"`
	TestUserEmails    []string `json:"testUserEmails,omitempty"`
	Type              string   `json:"type" enum:"service"`
	Scopes            []string `json:"scopes"`
	AllowedOrigins    []string `json:"allowedOrigins"`
}

// DeveloperApp is an OAuth client registered by a legal entity's developer
// account (in the sandbox, the developer account id is the legal entity id).
type DeveloperApp struct {
	ID                 string           `json:"id"`
	DeveloperAccountID string           `json:"developerAccountId"`
	Name               string           `json:"name"`
	Status             string           `json:"status"`
	Type               string           `json:"type"`
	Data               DeveloperAppData `json:"data"`
	ClientID           string           `json:"clientId"`
	ClientSecret       string           `json:"clientSecret"`
	CreatedAt          time.Time        `json:"createdAt"`
}

// oauthCode is an authorization code waiting to be exchanged.
type oauthCode struct {
	Code            string    `json:"code"`
	ClientID        string    `json:"clientId"`
	UserID          string    `json:"userId"`
	RedirectURI     string    `json:"redirectUri"`
	Scope           string    `json:"scope"`
	Nonce           string    `json:"nonce,omitempty"`
	Challenge       string    `json:"challenge,omitempty"`
	ChallengeMethod string    `json:"challengeMethod,omitempty"`
	ExpiresAt       time.Time `json:"expiresAt"`
	Used            bool      `json:"used"`
}

// oauthToken is an access or refresh token.
type oauthToken struct {
	Token     string    `json:"token"`
	Refresh   bool      `json:"refresh"`
	ClientID  string    `json:"clientId"`
	UserID    string    `json:"userId"`
	Scope     string    `json:"scope"`
	ExpiresAt time.Time `json:"expiresAt"`
	Revoked   bool      `json:"revoked"`
}

// TokenSet is what a token request returns.
type TokenSet struct {
	AccessToken  string
	RefreshToken string
	ExpiresIn    int
	Scope        string
	Nonce        string
	App          *DeveloperApp
	User         *kernel.User
	IssuedAt     time.Time
}

// WorldTag is the part of every OAuth token that names its world, so a
// bearer token finds its world the way an API key does.
func WorldTag(worldID string) string {
	sum := sha256.Sum256([]byte("slash-sandbox world " + worldID))
	return hex.EncodeToString(sum[:5])
}

func secret(op *kernel.Op, prefix, label string) (string, error) {
	n, err := op.NextSeq()
	if err != nil {
		return "", err
	}
	return prefix + WorldTag(op.W.ID) + "_" + kernel.Token36(op.W.Seed, label+"|"+op.W.ID+"|"+strconv.FormatInt(n, 10),
		32), nil
}

// CreateDeveloperApp registers an application for the actor's developer
// account.
func CreateDeveloperApp(
	op *kernel.Op,
	a *kernel.Actor,
	developerAccountID, name string,
	data DeveloperAppData,
) (*DeveloperApp, error) {
	if developerAccountID != a.LegalEntityID() {
		return nil, kernel.NotFound("developer account", "", developerAccountID)
	}
	id, err := op.NewID(prefixDevApp)
	if err != nil {
		return nil, err
	}
	app := &DeveloperApp{ID: id, DeveloperAccountID: developerAccountID, Name: name, Status: "test", Type: "service",
		Data: data, CreatedAt: op.Now}
	if app.ClientID, err = secret(op, "client_", "client_id"); err != nil {
		return nil, err
	}
	if app.ClientSecret, err = secret(op, "slcs_", "client_secret"); err != nil {
		return nil, err
	}
	if err := op.Save(kindOAuthClient, app.ClientID, app.ID); err != nil {
		return nil, err
	}
	return app, op.Save(kindDevApp, app.ID, app)
}

// DeveloperAppOf loads one of the actor's applications.
func DeveloperAppOf(op *kernel.Op, a *kernel.Actor, id string) (*DeveloperApp, error) {
	var app DeveloperApp
	ok, err := op.Get(kindDevApp, id, &app)
	if err != nil {
		return nil, err
	}
	if !ok || app.DeveloperAccountID != a.LegalEntityID() {
		return nil, kernel.NotFound("developer application", "", id)
	}
	return &app, nil
}

// UpdateDeveloperApp renames an application or replaces its settings.
func UpdateDeveloperApp(
	op *kernel.Op,
	a *kernel.Actor,
	id string,
	name *string,
	data *DeveloperAppData,
) (*DeveloperApp, error) {
	app, err := DeveloperAppOf(op, a, id)
	if err != nil {
		return nil, err
	}
	if name != nil {
		app.Name = *name
	}
	if data != nil {
		app.Data = *data
	}
	return app, op.Save(kindDevApp, app.ID, app)
}

// RotateDeveloperAppSecret gives an application a new client secret; the
// old one stops working at once.
func RotateDeveloperAppSecret(op *kernel.Op, a *kernel.Actor, id string) (*DeveloperApp, error) {
	app, err := DeveloperAppOf(op, a, id)
	if err != nil {
		return nil, err
	}
	if app.ClientSecret, err = secret(op, "slcs_", "client_secret"); err != nil {
		return nil, err
	}
	return app, op.Save(kindDevApp, app.ID, app)
}

// AuthorizeRequest is what GET /oauth2/authorize asks for.
type AuthorizeRequest struct {
	ClientID, RedirectURI, Scope, Nonce string
	Challenge, ChallengeMethod          string
	// User is the user id or email the sandbox approves for.
	User string
}

// Authorize approves an authorization request on the user's behalf and
// returns a code valid for ten minutes.
func Authorize(op *kernel.Op, req AuthorizeRequest) (string, error) {
	app, ok, err := appByClient(op, req.ClientID)
	if err != nil || !ok {
		return "", orInvalid(err, "client_id", "is not a developer application's oauthClientId")
	}
	if !slices.Contains(app.Data.RedirectURIs, req.RedirectURI) {
		return "", kernel.InvalidField("redirect_uri", "is not one of the application's redirectUris")
	}
	for _, s := range strings.Fields(req.Scope) {
		if !slices.Contains(OAuthScopes, s) {
			return "", kernel.InvalidField("scope", "unknown scope "+s)
		}
	}
	switch req.ChallengeMethod {
	case "", "plain", "S256":
	default:
		return "", kernel.InvalidField("code_challenge_method", "must be S256 or plain")
	}
	user, err := userFor(op, app, req.User)
	if err != nil {
		return "", err
	}
	code, err := secret(op, "slac_", "oauth_code")
	if err != nil {
		return "", err
	}
	method := req.ChallengeMethod
	if req.Challenge != "" && method == "" {
		method = "plain"
	}
	c := oauthCode{Code: code, ClientID: app.ClientID, UserID: user.ID, RedirectURI: req.RedirectURI, Scope: req.Scope,
		Nonce: req.Nonce, Challenge: req.Challenge, ChallengeMethod: method, ExpiresAt: op.Now.Add(codeTTL)}
	return code, op.Save(kindOAuthCode, code, &c)
}

// userFor finds the user an authorization is approved for: by id or email,
// with an active role on the application's legal entity or listed among
// its test users.
func userFor(op *kernel.Op, app *DeveloperApp, hint string) (*kernel.User, error) {
	var users []kernel.User
	var bad error
	err := op.Tx.Scan(store.Prefix("r", kernel.Users.Name), "", false, func(_, raw string) bool {
		var u kernel.User
		if bad = store.DecodeValue(raw, &u); bad != nil {
			return false
		}
		users = append(users, u)
		return true
	})
	if err == nil {
		err = bad
	}
	if err != nil {
		return nil, err
	}
	for _, u := range users {
		if hint == "" || (u.ID != hint && !strings.EqualFold(u.Email, hint)) {
			continue
		}
		p := kernel.Principal{Key: kernel.APIKey{Kind: kernel.KeyUser}, User: &u}
		if p.MayActOn(app.DeveloperAccountID) ||
			slices.ContainsFunc(app.Data.TestUserEmails, func(e string) bool { return strings.EqualFold(e, u.Email) }) {
			return &u, nil
		}
		return nil, kernel.InvalidField("login_hint",
			"the user may not act for the application's legal entity and is not a test user")
	}
	return nil, kernel.InvalidField("login_hint", "must name a user of the world by id or email")
}

func orInvalid(err error, field, problem string) error {
	if err != nil {
		return err
	}
	return kernel.InvalidField(field, problem)
}

func appByClient(op *kernel.Op, clientID string) (*DeveloperApp, bool, error) {
	var appID string
	ok, err := op.Get(kindOAuthClient, clientID, &appID)
	if err != nil || !ok {
		return nil, false, err
	}
	var app DeveloperApp
	ok, err = op.Get(kindDevApp, appID, &app)
	return &app, ok, err
}

// AuthenticateClient checks a client id and secret.
func AuthenticateClient(op *kernel.Op, clientID, secret string) (*DeveloperApp, error) {
	app, ok, err := appByClient(op, clientID)
	if err != nil {
		return nil, err
	}
	if !ok || subtle.ConstantTimeCompare([]byte(app.ClientSecret), []byte(secret)) != 1 {
		return nil, kernel.Errorf(kernel.CodeUnauthorized, "the client id or secret is wrong")
	}
	return app, nil
}

// ExchangeCode trades an authorization code for tokens, checking the
// redirect URI and the PKCE verifier. A code works once.
func ExchangeCode(op *kernel.Op, app *DeveloperApp, code, redirectURI, verifier string) (*TokenSet, error) {
	var c oauthCode
	ok, err := op.Get(kindOAuthCode, code, &c)
	if err != nil {
		return nil, err
	}
	switch {
	case !ok || c.ClientID != app.ClientID:
		return nil, kernel.InvalidField("code", "invalid_grant: unknown code")
	case c.Used:
		return nil, kernel.InvalidField("code", "invalid_grant: the code was already used")
	case !op.Now.Before(c.ExpiresAt):
		return nil, kernel.InvalidField("code", "invalid_grant: the code expired")
	case c.RedirectURI != redirectURI:
		return nil, kernel.InvalidField("redirect_uri", "invalid_grant: must be the redirect_uri of the authorization")
	case !pkceOK(c.Challenge, c.ChallengeMethod, verifier):
		return nil, kernel.InvalidField("code_verifier", "invalid_grant: does not match the code_challenge")
	}
	c.Used = true
	if err := op.Save(kindOAuthCode, code, &c); err != nil {
		return nil, err
	}
	ts, err := issue(op, app, c.UserID, c.Scope)
	if ts != nil {
		ts.Nonce = c.Nonce
	}
	return ts, err
}

// pkceOK checks a code verifier against the challenge (RFC 7636).
func pkceOK(challenge, method, verifier string) bool {
	if challenge == "" {
		return true
	}
	if method == "S256" {
		sum := sha256.Sum256([]byte(verifier))
		verifier = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	return subtle.ConstantTimeCompare([]byte(challenge), []byte(verifier)) == 1
}

// Refresh trades a refresh token for new tokens; the old refresh token is
// revoked.
func Refresh(op *kernel.Op, app *DeveloperApp, refresh string) (*TokenSet, error) {
	var t oauthToken
	ok, err := op.Get(kindOAuthToken, refresh, &t)
	if err != nil {
		return nil, err
	}
	if !ok || !t.Refresh || t.Revoked || t.ClientID != app.ClientID || !op.Now.Before(t.ExpiresAt) {
		return nil, kernel.InvalidField("refresh_token", "invalid_grant: unknown, used or expired refresh token")
	}
	t.Revoked = true
	if err := op.Save(kindOAuthToken, refresh, &t); err != nil {
		return nil, err
	}
	return issue(op, app, t.UserID, t.Scope)
}

func issue(op *kernel.Op, app *DeveloperApp, userID, scope string) (*TokenSet, error) {
	var u kernel.User
	if ok, err := op.Get(kernel.Users.Name, userID, &u); err != nil || !ok {
		return nil, orInvalid(err, "code", "invalid_grant: the user no longer exists")
	}
	ts := &TokenSet{ExpiresIn: int(AccessTokenTTL.Seconds()), Scope: scope, App: app, User: &u, IssuedAt: op.Now}
	var err error
	if ts.AccessToken, err = secret(op, "slat_", "access_token"); err != nil {
		return nil, err
	}
	if ts.RefreshToken, err = secret(op, "slrt_", "refresh_token"); err != nil {
		return nil, err
	}
	access := oauthToken{
		Token:     ts.AccessToken,
		ClientID:  app.ClientID,
		UserID:    userID,
		Scope:     scope,
		ExpiresAt: op.Now.Add(AccessTokenTTL),
	}
	refresh := oauthToken{
		Token:     ts.RefreshToken,
		Refresh:   true,
		ClientID:  app.ClientID,
		UserID:    userID,
		Scope:     scope,
		ExpiresAt: op.Now.Add(refreshTTL),
	}
	if err := op.Save(kindOAuthToken, access.Token, &access); err != nil {
		return nil, err
	}
	return ts, op.Save(kindOAuthToken, refresh.Token, &refresh)
}

// BearerPrincipal resolves an OAuth access token to its user: a principal
// like a user-scoped API key's, named for the application.
func BearerPrincipal(op *kernel.Op, token string) (*kernel.Principal, error) {
	var t oauthToken
	ok, err := op.Get(kindOAuthToken, token, &t)
	if err != nil {
		return nil, err
	}
	if !ok || t.Refresh || t.Revoked || !op.Now.Before(t.ExpiresAt) {
		return nil, kernel.Errorf(kernel.CodeUnauthorized, "the access token is missing, invalid or expired")
	}
	var u kernel.User
	if ok, err := op.Get(kernel.Users.Name, t.UserID, &u); err != nil || !ok {
		return nil, orInvalid(err, "Authorization", "the token's user no longer exists")
	}
	return &kernel.Principal{
		Key:  kernel.APIKey{Key: "oauth:" + t.ClientID, Name: "OAuth " + t.ClientID, Kind: kernel.KeyUser, UserID: u.ID},
		User: &u,
	}, nil
}
