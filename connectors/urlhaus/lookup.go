package urlhaus

import (
	"context"
	"fmt"
	"net/url"
	"slices"

	"github.com/vigil-soc/vigil/intel"
	"github.com/vigil-soc/vigil/triage"
)

// Scores. URLhaus lists only URLs seen distributing malware, so a listing
// is malicious; one still online is the strongest signal. A host whose
// listed URLs are all offline served malware once and may be a cleaned,
// legitimate site: suspicious.
const (
	scoreOnline      = 95
	scoreListed      = 85
	scorePayload     = 95
	scoreHostOnline  = 90
	scoreHostOffline = 60
)

type urlAnswer struct {
	answer
	URLStatus string   `json:"url_status"`
	Threat    string   `json:"threat"`
	Tags      []string `json:"tags"`
}

type hostAnswer struct {
	answer
	Blacklists map[string]string `json:"blacklists"`
	URLs       []struct {
		URLStatus string   `json:"url_status"`
		Threat    string   `json:"threat"`
		Tags      []string `json:"tags"`
	} `json:"urls"`
}

type payloadAnswer struct {
	answer
	FileType  string `json:"file_type"`
	Signature string `json:"signature"`
}

// notListed is the answer for an indicator URLhaus does not know: absence
// from a malware list says nothing about being clean.
const notListed = "not-in-urlhaus"

// Lookup rates value, an indicator of type typ.
func (c *Connector) Lookup(ctx context.Context, typ, value string) (triage.Reputation, error) {
	rep := triage.Reputation{Type: typ, Value: value, Source: Type, Verdict: triage.ReputationUnknown}
	var err error
	switch typ {
	case triage.IndicatorURL:
		err = c.rateURL(ctx, value, &rep)
	case triage.IndicatorDomain, triage.IndicatorIP:
		err = c.rateHost(ctx, value, &rep)
	case triage.IndicatorHash:
		err = c.ratePayload(ctx, value, &rep)
	default:
		return triage.Reputation{}, fmt.Errorf("%w: %q", intel.ErrUnsupportedType, typ)
	}
	if err != nil {
		return triage.Reputation{}, err
	}
	return rep, nil
}

func (c *Connector) rateURL(ctx context.Context, value string, rep *triage.Reputation) error {
	var a urlAnswer
	if err := c.query(ctx, "/url/", url.Values{"url": {value}}, &a); err != nil {
		return err
	}
	if a.QueryStatus == "no_results" {
		rep.Tags = []string{notListed}
		return nil
	}
	rep.Verdict, rep.Score = triage.ReputationMalicious, scoreListed
	if a.URLStatus == "online" {
		rep.Score = scoreOnline
	}
	rep.Tags = withTags(withTags(nil, a.Threat, prefixed("url_status:", a.URLStatus)), a.Tags...)
	return nil
}

func (c *Connector) rateHost(ctx context.Context, value string, rep *triage.Reputation) error {
	var a hostAnswer
	if err := c.query(ctx, "/host/", url.Values{"host": {value}}, &a); err != nil {
		return err
	}
	if a.QueryStatus == "no_results" || len(a.URLs) == 0 {
		rep.Tags = []string{notListed}
		return nil
	}
	rep.Verdict, rep.Score = triage.ReputationSuspicious, scoreHostOffline
	var tags []string
	for _, u := range a.URLs {
		if u.URLStatus == "online" {
			rep.Verdict, rep.Score = triage.ReputationMalicious, scoreHostOnline
		}
		tags = withTags(withTags(tags, u.Threat), u.Tags...)
	}
	tags = append([]string{fmt.Sprintf("malware-urls:%d", len(a.URLs))}, tags...)
	if dbl := a.Blacklists["spamhaus_dbl"]; dbl != "" && dbl != "not listed" {
		tags = append(tags, "spamhaus-dbl:"+dbl)
	}
	rep.Tags = tags[:min(len(tags), 8)]
	return nil
}

func (c *Connector) ratePayload(ctx context.Context, value string, rep *triage.Reputation) error {
	field := map[int]string{32: "md5_hash", 64: "sha256_hash"}[len(value)]
	if field == "" {
		rep.Tags = []string{"hash-type-not-searchable-in-urlhaus"}
		return nil
	}
	var a payloadAnswer
	if err := c.query(ctx, "/payload/", url.Values{field: {value}}, &a); err != nil {
		return err
	}
	if a.QueryStatus == "no_results" {
		rep.Tags = []string{notListed}
		return nil
	}
	rep.Verdict, rep.Score = triage.ReputationMalicious, scorePayload
	rep.Tags = withTags(nil, a.Signature, prefixed("file_type:", a.FileType))
	return nil
}

// withTags appends the non-empty tags not already present.
func withTags(tags []string, more ...string) []string {
	for _, t := range more {
		if t != "" && !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	return tags
}

// prefixed is prefix+value, or "" for an empty value.
func prefixed(prefix, value string) string {
	if value == "" {
		return ""
	}
	return prefix + value
}
