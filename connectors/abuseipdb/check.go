package abuseipdb

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/connectors/vendorhttp"
	"github.com/vigil-soc/vigil/intel"
	"github.com/vigil-soc/vigil/triage"
)

// report is the part of a check answer Vigil reads.
type report struct {
	IsPublic      bool   `json:"isPublic"`
	IsWhitelisted *bool  `json:"isWhitelisted"`
	Score         int    `json:"abuseConfidenceScore"`
	CountryCode   string `json:"countryCode"`
	UsageType     string `json:"usageType"`
	IsTor         bool   `json:"isTor"`
	TotalReports  int    `json:"totalReports"`
}

// Score bands for the abuse confidence score: AbuseIPDB's own guidance
// treats 75 and above as safe to block; 25 and above warrants a look.
const (
	maliciousFrom  = 75
	suspiciousFrom = 25
)

// Lookup rates an IP address. Other indicator types are not AbuseIPDB's
// business and answer intel.ErrUnsupportedType.
func (c *Connector) Lookup(ctx context.Context, typ, value string) (triage.Reputation, error) {
	if typ != triage.IndicatorIP {
		return triage.Reputation{}, fmt.Errorf("%w: AbuseIPDB rates IP addresses only, not %q", intel.ErrUnsupportedType, typ)
	}
	r, err := c.check(ctx, value)
	if err != nil {
		return triage.Reputation{}, err
	}
	rep := triage.Reputation{Type: typ, Value: value, Source: Type, Tags: r.tags()}
	rep.Verdict, rep.Score = r.rate()
	return rep, nil
}

// rate maps the report to a verdict and score:
//   - not a public address: unknown, 0;
//   - on AbuseIPDB's allow list: clean, 0;
//   - score 75 and above: malicious, the score;
//   - 25 to 74: suspicious, the score (at most 69, below triage's malicious tier);
//   - below 25 with reports: clean, the score; without reports: unknown, 0.
func (r report) rate() (string, int) {
	switch {
	case !r.IsPublic:
		return triage.ReputationUnknown, 0
	case r.IsWhitelisted != nil && *r.IsWhitelisted:
		return triage.ReputationClean, 0
	case r.Score >= maliciousFrom:
		return triage.ReputationMalicious, r.Score
	case r.Score >= suspiciousFrom:
		return triage.ReputationSuspicious, min(r.Score, 69)
	case r.TotalReports > 0:
		return triage.ReputationClean, r.Score
	}
	return triage.ReputationUnknown, 0
}

func (r report) tags() []string {
	tags := []string{fmt.Sprintf("abuse-reports:%d", r.TotalReports)}
	if r.IsTor {
		tags = append(tags, "tor-exit")
	}
	if r.UsageType != "" {
		tags = append(tags, strings.ToLower(r.UsageType))
	}
	if r.CountryCode != "" {
		tags = append(tags, "country:"+r.CountryCode)
	}
	if !r.IsPublic {
		tags = append(tags, "non-public")
	}
	return tags
}

// check calls GET /check, unless the daily quota is known to be spent.
func (c *Connector) check(ctx context.Context, ip string) (report, error) {
	if wait := c.quota.wait(); wait > 0 {
		return report{}, &vendorhttp.Error{Vendor: "AbuseIPDB", Status: http.StatusTooManyRequests,
			Kind: vendorhttp.ErrRateLimited, Detail: "daily quota spent until " + time.Now().Add(wait).UTC().Format(time.RFC3339),
			RetryAfter: wait}
	}
	var out struct {
		Data report `json:"data"`
	}
	resp, err := c.api.Do(ctx, vendorhttp.Request{Method: "GET", Path: "/check",
		Query: url.Values{"ipAddress": {ip}, "maxAgeInDays": {c.maxAge}}, Out: &out})
	if err != nil {
		var ve *vendorhttp.Error
		if errors.As(err, &ve) && ve.Status == http.StatusTooManyRequests && ve.RetryAfter > 0 {
			c.quota.observe("0", fmt.Sprint(time.Now().Add(ve.RetryAfter).Unix()))
		}
		return report{}, err
	}
	c.quota.observe(resp.Header.Get("X-RateLimit-Remaining"), resp.Header.Get("X-RateLimit-Reset"))
	return out.Data, nil
}
