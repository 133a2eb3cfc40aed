package api

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/devapps"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesOAuth(r *mux.Router, docs *openapi.Registry) {
	describeOAuth(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/.well-known/openid-configuration", "oauth2.openid_configuration",
		a.openIDConfiguration)
	web.Route(r, web.Gen1, http.MethodGet, "/oauth2/authorize", "oauth2.authorize", a.authorize)
	web.Route(r, web.Gen1, http.MethodPost, "/oauth2/token", "oauth2.token", a.token)
	web.Route(r, web.Gen1, http.MethodGet, "/oauth2/userinfo", "oauth2.userinfo", a.userinfo)
	web.Route(r, web.Gen1, http.MethodPost, "/oauth2/userinfo", "oauth2.userinfo.post", a.userinfo)
}

type openIDConfig struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	UserinfoEndpoint                  string   `json:"userinfo_endpoint"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported" enum:"client_secret_post,client_secret_basic,client_secret_jwt,private_key_jwt"`
	ResponseTypesSupported            []string `json:"response_types_supported" enum:"code,token,id_token token"`
	ScopesSupported                   []string `json:"scopes_supported" enum:"openid,offline_access,profile,email,address,phone,user.identity.view"`
	GrantTypesSupported               []string `json:"grant_types_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	IDTokenSigningAlgValuesSupported  []string `json:"id_token_signing_alg_values_supported"`
	SubjectTypesSupported             []string `json:"subject_types_supported"`
}

type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	IDToken      string `json:"id_token"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope,omitempty"`
}

type userInfo struct {
	Sub         string `json:"sub"`
	Name        string `json:"name"`
	Email       string `json:"email"`
	PhoneNumber string `json:"phone_number,omitempty"`
}

// describeOAuth adds the descriptions of these routes, and the components
// they name, to docs.
func describeOAuth(docs *openapi.Registry) {
	docs.Component("UserInfo", userInfo{})
	docs.Describe("oauth2.openid_configuration",
		openapi.Op{Summary: "OpenID Connect discovery", Security: openapi.Public, Response: openIDConfig{}})
	docs.Describe(
		"oauth2.authorize",
		openapi.Op{Summary: "Authorize an application (auto-approved)", Security: openapi.Public, Extension: true,
			Description: "Approves at once for the user named by login_hint (a user id or email with a role on the" +
				" application's legal entity, or one of its test users) and redirects to redirect_uri with code and state. Errors" +
				" answer 400 without redirecting.",
			Query: []openapi.Param{{Name: "client_id", Required: true}, {Name: "redirect_uri", Required: true},
				{Name: "response_type", Required: true, Schema: openapi.Schema{"type": "string", "enum": []string{"code"}}},
				{Name: "login_hint", Required: true, Description: "The user to approve for: id or email."},
				{Name: "scope"}, {Name: "state"}, {Name: "nonce"}, {Name: "code_challenge"},
				{Name: "code_challenge_method", Schema: openapi.Schema{"type": "string", "enum": []string{"S256", "plain"}}}},
			Status: http.StatusFound},
	)
	form := openapi.Schema{"type": "object", "required": []string{"grant_type"}, "properties": openapi.Schema{
		"grant_type": openapi.Schema{"type": "string", "enum": []string{"authorization_code", "refresh_token"}},
		"code":       openapi.Schema{"type": "string"}, "code_verifier": openapi.Schema{"type": "string"},
		"redirect_uri": openapi.Schema{"type": "string"}, "refresh_token": openapi.Schema{"type": "string"},
		"scope": openapi.Schema{"type": "string"}}}
	docs.Describe(
		"oauth2.token",
		openapi.Op{Summary: "Exchange an authorization code or a refresh token", Security: openapi.ClientBasic,
			Body: form, BodyType: "application/x-www-form-urlencoded", Response: tokenResponse{}},
	)
	docs.Describe("oauth2.userinfo",
		openapi.Op{Summary: "The token's user", Security: openapi.BearerOnly, Response: userInfo{}})
	docs.Describe("oauth2.userinfo.post",
		openapi.Op{Summary: "The token's user", Security: openapi.BearerOnly, Read: true, Response: userInfo{}})
}

func (a *API) openIDConfiguration(r *http.Request) (any, error) {
	base := web.BaseURL(r)
	return openIDConfig{
		Issuer:                            base,
		AuthorizationEndpoint:             base + "/oauth2/authorize",
		TokenEndpoint:                     base + "/oauth2/token",
		UserinfoEndpoint:                  base + "/oauth2/userinfo",
		TokenEndpointAuthMethodsSupported: []string{"client_secret_basic"},
		ResponseTypesSupported:            []string{"code"},
		ScopesSupported:                   devapps.OAuthScopes,
		GrantTypesSupported: []string{
			"authorization_code",
			"refresh_token",
		},
		CodeChallengeMethodsSupported:    []string{"S256", "plain"},
		IDTokenSigningAlgValuesSupported: []string{"HS256"},
		SubjectTypesSupported:            []string{"public"},
	}, nil
}

// authorize approves at once and redirects with the code.
func (a *API) authorize(r *http.Request) (any, error) {
	q := r.URL.Query()
	if q.Get("response_type") != "code" {
		return nil, kernel.InvalidField("response_type", "must be code")
	}
	w, ok := a.worldForToken(q.Get("client_id"))
	if !ok {
		return nil, kernel.InvalidField("client_id", "is not a developer application's oauthClientId")
	}
	web.InfoOf(r).World, web.InfoOf(r).Reference = w.ID, w.ReferenceID
	var code string
	err := w.Update(func(op *kernel.Op) error {
		var err error
		code, err = devapps.Authorize(
			op,
			devapps.AuthorizeRequest{ClientID: q.Get("client_id"), RedirectURI: q.Get("redirect_uri"),
				Scope: q.Get("scope"), Nonce: q.Get("nonce"), Challenge: q.Get("code_challenge"),
				ChallengeMethod: q.Get("code_challenge_method"), User: q.Get("login_hint")},
		)
		return err
	})
	if err != nil {
		return nil, err
	}
	to, _ := url.Parse(q.Get("redirect_uri"))
	params := to.Query()
	params.Set("code", code)
	if s := q.Get("state"); s != "" {
		params.Set("state", s)
	}
	to.RawQuery = params.Encode()
	return &web.Response{Status: http.StatusFound, Header: http.Header{"Location": {to.String()}}}, nil
}

// token serves both grants; the client authenticates with HTTP Basic.
func (a *API) token(r *http.Request) (any, error) {
	clientID, secret, ok := r.BasicAuth()
	if !ok {
		return nil, kernel.Errorf(kernel.CodeUnauthorized,
			"authenticate the client with HTTP Basic: oauthClientId and oauthClientSecret")
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "application/x-www-form-urlencoded" {
		return nil, kernel.Errorf(kernel.CodeUnsupportedMediaType, "Content-Type must be application/x-www-form-urlencoded")
	}
	if err := r.ParseForm(); err != nil {
		return nil, kernel.InvalidField("body", "malformed form: "+err.Error())
	}
	w, found := a.worldForToken(clientID)
	if !found {
		return nil, kernel.Errorf(kernel.CodeUnauthorized, "the client id or secret is wrong")
	}
	web.InfoOf(r).World, web.InfoOf(r).Reference = w.ID, w.ReferenceID
	f := r.PostForm
	var ts *devapps.TokenSet
	err := w.Update(func(op *kernel.Op) error {
		app, err := devapps.AuthenticateClient(op, clientID, secret)
		if err != nil {
			return err
		}
		switch f.Get("grant_type") {
		case "authorization_code":
			ts, err = devapps.ExchangeCode(op, app, f.Get("code"), f.Get("redirect_uri"), f.Get("code_verifier"))
		case "refresh_token":
			ts, err = devapps.Refresh(op, app, f.Get("refresh_token"))
		default:
			err = kernel.InvalidField("grant_type", "must be authorization_code or refresh_token")
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return tokenResponse{
		AccessToken:  ts.AccessToken,
		TokenType:    "Bearer",
		ExpiresIn:    ts.ExpiresIn,
		RefreshToken: ts.RefreshToken,
		Scope:        ts.Scope,
		IDToken:      idToken(web.BaseURL(r), ts),
	}, nil
}

// idToken is an OpenID Connect ID token signed with HS256 under the
// client secret.
func idToken(issuer string, ts *devapps.TokenSet) string {
	claims := map[string]any{"iss": issuer, "sub": ts.User.ID, "aud": ts.App.ClientID, "iat": ts.IssuedAt.Unix(),
		"exp": ts.IssuedAt.Add(devapps.AccessTokenTTL).Unix(), "name": ts.User.Name, "email": ts.User.Email}
	if ts.Nonce != "" {
		claims["nonce"] = ts.Nonce
	}
	enc := base64.RawURLEncoding
	head, _ := json.Marshal(map[string]string{"alg": "HS256", "typ": "JWT"})
	body, _ := json.Marshal(claims)
	signing := enc.EncodeToString(head) + "." + enc.EncodeToString(body)
	mac := hmac.New(sha256.New, []byte(ts.App.ClientSecret))
	mac.Write([]byte(signing))
	return signing + "." + enc.EncodeToString(mac.Sum(nil))
}

func (a *API) userinfo(r *http.Request) (any, error) {
	token, ok := bearerToken(r)
	if !ok {
		return nil, kernel.Errorf(kernel.CodeUnauthorized, "send the access token as Authorization: Bearer")
	}
	c, err := a.authBearer(r, authOpts{gen: web.Gen1, headerOptional: true}, strings.TrimSpace(token))
	if err != nil {
		return nil, err
	}
	u := c.P.User
	return userInfo{Sub: u.ID, Name: u.Name, Email: u.Email}, nil
}
