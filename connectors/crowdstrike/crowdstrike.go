// Package crowdstrike connects Vigil to CrowdStrike Falcon: host lookup,
// network containment and on-demand scans through the Falcon OAuth2 API.
package crowdstrike

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// Type is the vendor type configurations name.
const Type = "crowdstrike"

// title names the product in messages and errors.
const title = "CrowdStrike Falcon"

// DefaultBaseURL is the US-1 cloud; other clouds have their own
// (api.us-2.crowdstrike.com, api.eu-1.crowdstrike.com,
// api.laggar.gcw.crowdstrike.com).
const DefaultBaseURL = "https://api.crowdstrike.com"

// DefaultQuickScanPaths are the folders a quick scan covers, in the glob
// syntax of Falcon's on-demand scan inclusions.
const DefaultQuickScanPaths = `**\Users\*\Downloads\**,**\Users\*\AppData\**,**\Windows\Temp\**,**\ProgramData\**,/tmp/**,/home/*/Downloads/**`

func init() {
	connectors.Register(connectors.Vendor{
		Type:  Type,
		Title: title,
		Kinds: []string{connectors.KindEDR},
		Fields: []connectors.Field{
			{Name: "base_url", Description: "API base URL of your Falcon cloud", Default: DefaultBaseURL},
			{Name: "client_id", Description: "API client ID", Required: true},
			{Name: "client_secret", Description: "API client secret", Required: true, Secret: true},
			{Name: "quick_scan_paths", Description: "comma-separated glob paths a quick scan covers (a full scan covers everything)", Default: DefaultQuickScanPaths},
		},
		New: func(cfg connectors.Config) (any, error) { return New(cfg) },
	})
}

// Falcon is a configured CrowdStrike Falcon connector; it implements
// connectors.EDR and connectors.Tester.
type Falcon struct {
	api        *vendorhttp.Client
	quickPaths []string
}

// New builds a connector from cfg without calling Falcon.
func New(cfg connectors.Config) (*Falcon, error) {
	if cfg.HTTP == nil {
		return nil, errors.New("crowdstrike: no HTTP client")
	}
	id, secret := cfg.Settings["client_id"], cfg.Secrets["client_secret"]
	if id == "" || secret == "" {
		return nil, errors.New("crowdstrike: client_id and client_secret are required")
	}
	base := strings.TrimSuffix(cfg.Setting("base_url", DefaultBaseURL), "/")
	tokens := clientcredentials.Config{ClientID: id, ClientSecret: secret,
		TokenURL: base + "/oauth2/token", AuthStyle: oauth2.AuthStyleInParams}
	return &Falcon{
		api: &vendorhttp.Client{Vendor: title, BaseURL: base, HTTP: cfg.HTTP,
			Auth: vendorhttp.ClientCredentials(title, tokens, cfg.HTTP)},
		quickPaths: splitList(cfg.Setting("quick_scan_paths", DefaultQuickScanPaths)),
	}, nil
}

// Test lists one host id: it proves the credentials and the Hosts: Read scope.
func (f *Falcon) Test(ctx context.Context) error {
	var out idsAnswer
	_, err := f.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/devices/queries/devices/v1",
		Query: map[string][]string{"limit": {"1"}}, Out: &out})
	return err
}

// envelope is the shape of every Falcon answer: resources plus errors.
type envelope[T any] struct {
	Resources []T        `json:"resources"`
	Errors    []apiError `json:"errors"`
}

type apiError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// idsAnswer is what the queries endpoints return: ids.
type idsAnswer = envelope[string]

// firstError turns errors Falcon reports inside a successful answer into
// a permanent error.
func firstError(errs []apiError) error {
	if len(errs) == 0 {
		return nil
	}
	return connectors.Permanentf("%s: %s (code %d)", title, errs[0].Message, errs[0].Code)
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
