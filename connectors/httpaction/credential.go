package httpaction

import (
	"context"
	"strings"

	"github.com/vigil-soc/vigil/connectors"
)

// CredentialType is the vendor type of a connector that holds one secret
// header for http_request actions; a playbook names the connector's id in
// the action's credential parameter and never sees the secret.
const CredentialType = "http_credential"

func init() {
	connectors.Register(connectors.Vendor{
		Type: CredentialType, Title: "HTTP request credential", Kinds: []string{connectors.KindHTTP},
		Fields: []connectors.Field{
			{Name: "header", Description: "header that carries the secret", Default: "Authorization"},
			{Name: "prefix", Description: "text sent before the secret, for example \"Bearer \""},
			{Name: "hosts", Description: "comma-separated hosts the secret may be sent to; empty allows every http_request host"},
			{Name: "value", Description: "the secret (API token or key)", Required: true, Secret: true},
		},
		New: func(cfg connectors.Config) (any, error) { return CredentialFrom(cfg), nil },
	})
}

// CredentialFrom reads a Credential from an http_credential configuration.
func CredentialFrom(cfg connectors.Config) Credential {
	c := Credential{Header: cfg.Setting("header", "Authorization"), Value: cfg.Setting("prefix", "") + cfg.Secrets["value"]}
	for _, h := range strings.Split(cfg.Settings["hosts"], ",") {
		if h = strings.TrimSpace(h); h != "" {
			c.Hosts = append(c.Hosts, h)
		}
	}
	return c
}

// Test implements connectors.Tester: a credential has nothing to call, so
// it only checks that a secret is present.
func (c Credential) Test(context.Context) error {
	if c.Value == "" {
		return connectors.Permanentf("no secret value is configured")
	}
	return nil
}
