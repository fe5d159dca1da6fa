package intel

import (
	"context"
	"fmt"
	"hash/fnv"
	"net/netip"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/triage"
)

// SimulatedSourceName is the Reputation.Source of every simulated answer.
const SimulatedSourceName = "simulated-intel"

// NewSimulated returns an offline Source for deployments without an
// intelligence subscription. Its answers are derived from the indicator
// alone, so they are deterministic and need no network, and each is labelled
// Simulated with Source "simulated-intel". The rules, checked in order:
//
//   - hashes: the EICAR anti-virus test file (MD5, SHA-1, SHA-256) is
//     malicious (100, tag "eicar-test-file"); the empty file is clean.
//   - IP addresses: private, loopback, link-local, CGNAT and other
//     non-routable addresses are clean (tag "non-routable"); the RFC 5737
//     and RFC 3849 documentation ranges are unknown (tag
//     "documentation-range"), since sample data uses them for either side.
//   - domains: a short list of well-known services is clean; a brand name
//     with digits for letters (micros0ft, paypa1) is malicious (90); a brand
//     name next to a lure word (microsoft-login, paypalsecure) is malicious
//     (85); a brand name inside an unrelated domain is suspicious (55); a
//     URL shortener is suspicious (50); a TLD popular with abuse is
//     suspicious (40).
//   - URLs: the host is rated as a domain; a raw IP address as host is
//     suspicious (60), or malicious (80) when it serves an executable; an
//     executable download from an otherwise unknown host is suspicious (55);
//     a credential path on a look-alike host adds 5.
//   - anything else is unknown with a score below 25 derived from a hash of
//     the value, so repeated lookups agree.
func NewSimulated() Source { return simulated{} }

type simulated struct{}

// Name returns SimulatedSourceName.
func (simulated) Name() string { return SimulatedSourceName }

// Simulated is always true: nothing here is real intelligence.
func (simulated) Simulated() bool { return true }

// Lookup rates value by the rules documented on NewSimulated.
func (simulated) Lookup(ctx context.Context, typ, value string) (triage.Reputation, error) {
	if err := ctx.Err(); err != nil {
		return triage.Reputation{}, err
	}
	if TTL(typ) == 0 {
		return triage.Reputation{}, fmt.Errorf("%w: %q", ErrUnsupportedType, typ)
	}
	norm, ok := normalize(typ, value)
	var r rating
	switch {
	case !ok:
		r = rating{verdict: triage.ReputationUnknown, tags: []string{"invalid-indicator"}}
	case typ == triage.IndicatorHash:
		r = rateHash(norm)
	case typ == triage.IndicatorIP:
		r = rateIP(netip.MustParseAddr(norm))
	case typ == triage.IndicatorDomain:
		r = rateDomain(norm)
	default:
		r = rateURL(norm)
	}
	if r.verdict == "" {
		r = rating{verdict: triage.ReputationUnknown, score: lowScore(typ, norm)}
	}
	return triage.Reputation{
		Type: typ, Value: value, Verdict: r.verdict, Score: r.score, Source: SimulatedSourceName,
		Tags: r.tags, Simulated: true, CheckedAt: time.Now().UTC().Truncate(time.Microsecond),
	}, nil
}

// rating is a verdict before it becomes a Reputation; the zero value means
// no rule matched.
type rating struct {
	verdict string
	score   int
	tags    []string
}

// lowScore spreads unknown indicators over 0..24 so they do not all look
// alike, while staying far below the suspicious range.
func lowScore(typ, value string) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(typ + ":" + value))
	return int(h.Sum32() % 25)
}

// sampleHashes are well-known, harmless samples: the EICAR test file every
// anti-virus product detects on purpose, and the empty file.
var sampleHashes = map[string]rating{
	"44d88612fea8a8f36de82e1278abb02f":                                 {triage.ReputationMalicious, 100, []string{"eicar-test-file"}},
	"3395856ce81f2b7382dee72602f798b642f14140":                         {triage.ReputationMalicious, 100, []string{"eicar-test-file"}},
	"275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f": {triage.ReputationMalicious, 100, []string{"eicar-test-file"}},
	"d41d8cd98f00b204e9800998ecf8427e":                                 {triage.ReputationClean, 0, []string{"empty-file"}},
	"da39a3ee5e6b4b0d3255bfef95601890afd80709":                         {triage.ReputationClean, 0, []string{"empty-file"}},
	"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855": {triage.ReputationClean, 0, []string{"empty-file"}},
}

func rateHash(h string) rating { return sampleHashes[h] }

var (
	documentationRanges = []netip.Prefix{
		netip.MustParsePrefix("192.0.2.0/24"),
		netip.MustParsePrefix("198.51.100.0/24"),
		netip.MustParsePrefix("203.0.113.0/24"),
		netip.MustParsePrefix("2001:db8::/32"),
	}
	// sharedAddressSpace is RFC 6598 carrier-grade NAT, which netip does
	// not count as private.
	sharedAddressSpace = netip.MustParsePrefix("100.64.0.0/10")
)

func rateIP(a netip.Addr) rating {
	for _, p := range documentationRanges {
		if p.Contains(a) {
			return rating{verdict: triage.ReputationUnknown, tags: []string{"documentation-range"}}
		}
	}
	if a.IsPrivate() || a.IsLoopback() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsMulticast() || a.IsUnspecified() || sharedAddressSpace.Contains(a) {
		return rating{verdict: triage.ReputationClean, tags: []string{"non-routable"}}
	}
	return rating{}
}

func rateURL(raw string) rating {
	u, err := url.Parse(raw)
	if err != nil {
		return rating{}
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	exe := executableExtensions[strings.TrimPrefix(strings.ToLower(path.Ext(u.Path)), ".")]
	if _, err := netip.ParseAddr(host); err == nil {
		if exe {
			return rating{triage.ReputationMalicious, 80, []string{"raw-ip-url", "executable-download"}}
		}
		return rating{triage.ReputationSuspicious, 60, []string{"raw-ip-url"}}
	}
	r := rateDomain(host)
	switch {
	case r.verdict == triage.ReputationMalicious && hasCredentialPath(u):
		r.score = min(100, r.score+5)
		r.tags = append(r.tags, "credential-path")
	case r.verdict == "" && exe:
		r = rating{triage.ReputationSuspicious, 55, []string{"executable-download"}}
	}
	return r
}

// executableExtensions are file types that run when opened; legitimate
// software is rarely fetched from a link in an alert.
var executableExtensions = setOf("exe", "scr", "dll", "msi", "js", "jse", "vbs", "hta", "ps1", "bat", "cmd", "jar", "lnk", "iso", "apk")

var credentialPathWords = []string{"login", "signin", "sign-in", "logon", "verify", "password", "account", "auth", "webscr"}

func hasCredentialPath(u *url.URL) bool {
	p := strings.ToLower(u.EscapedPath() + "?" + u.RawQuery)
	for _, w := range credentialPathWords {
		if strings.Contains(p, w) {
			return true
		}
	}
	return false
}

func setOf(items ...string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, it := range items {
		m[it] = true
	}
	return m
}
