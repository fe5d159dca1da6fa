package virustotal

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"

	"github.com/vigil-soc/vigil/connectors/vendorhttp"
	"github.com/vigil-soc/vigil/intel"
	"github.com/vigil-soc/vigil/triage"
)

// object is the part of a VirusTotal file, URL, domain or IP address
// object Vigil reads.
type object struct {
	Data struct {
		Attributes struct {
			Stats  analysisStats `json:"last_analysis_stats"`
			Tags   []string      `json:"tags"`
			Threat struct {
				Label string `json:"suggested_threat_label"`
			} `json:"popular_threat_classification"`
		} `json:"attributes"`
	} `json:"data"`
}

// Lookup rates value, an indicator of type typ. An indicator VirusTotal
// has never seen is unknown, not an error.
func (c *Connector) Lookup(ctx context.Context, typ, value string) (triage.Reputation, error) {
	path, err := objectPath(typ, value)
	if err != nil {
		return triage.Reputation{}, err
	}
	rep := triage.Reputation{Type: typ, Value: value, Source: Type}
	obj, err := c.object(ctx, path)
	switch {
	case errors.Is(err, vendorhttp.ErrNotFound):
		rep.Verdict, rep.Tags = triage.ReputationUnknown, []string{"not-in-virustotal"}
		return rep, nil
	case err != nil:
		return triage.Reputation{}, err
	}
	a := obj.Data.Attributes
	rep.Verdict, rep.Score = a.Stats.rate()
	rep.Tags = append(rep.Tags, fmt.Sprintf("detections:%d/%d", a.Stats.Malicious, a.Stats.engines()))
	if a.Threat.Label != "" {
		rep.Tags = append(rep.Tags, a.Threat.Label)
	}
	rep.Tags = append(rep.Tags, a.Tags[:min(len(a.Tags), 5)]...)
	return rep, nil
}

func (c *Connector) object(ctx context.Context, path string) (object, error) {
	var obj object
	err := c.get(ctx, path, &obj)
	return obj, err
}

// objectPath is the API path of an indicator's object. A URL's id is its
// unpadded base64url encoding.
func objectPath(typ, value string) (string, error) {
	if value == "" {
		return "", fmt.Errorf("%w: empty %s", intel.ErrUnsupportedType, typ)
	}
	switch typ {
	case triage.IndicatorHash:
		return "/files/" + url.PathEscape(value), nil
	case triage.IndicatorURL:
		return "/urls/" + base64.RawURLEncoding.EncodeToString([]byte(value)), nil
	case triage.IndicatorDomain:
		return "/domains/" + url.PathEscape(value), nil
	case triage.IndicatorIP:
		return "/ip_addresses/" + url.PathEscape(value), nil
	}
	return "", fmt.Errorf("%w: %q", intel.ErrUnsupportedType, typ)
}
