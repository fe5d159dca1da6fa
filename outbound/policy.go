// Package outbound is the policy for every call Vigil makes to an address
// its users configure (notification channels, hunt data sources, connectors):
// https only by default, and no internal or cloud metadata address unless an
// admin listed its host in the outbound setting.
package outbound

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/vigil-soc/vigil/store"
)

// Policy is the policy for calls out of Vigil (setting outbound): https
// only unless AllowHTTP, and no loopback, private, link-local or cloud
// metadata address unless its host (or host:port) is in AllowHosts.
type Policy struct {
	AllowHTTP  bool     `json:"allow_http"`
	AllowHosts []string `json:"allow_hosts"`
	// HTTPRequestHosts are the only hosts the generic http_request action
	// may call (deny by default); see RequestHostAllowed.
	HTTPRequestHosts []string `json:"http_request_hosts"`
}

// RequestHostAllowed reports whether the http_request action may call the
// host (with optional port) of hostport: its host:port or bare host must
// be listed in HTTPRequestHosts, compared without case.
func (o Policy) RequestHostAllowed(hostport string) bool {
	hostport = strings.ToLower(hostport)
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	host = strings.Trim(host, "[]")
	for _, h := range o.HTTPRequestHosts {
		h = strings.ToLower(h)
		if h == hostport || strings.Trim(h, "[]") == host {
			return true
		}
	}
	return false
}

// ErrRefused matches every refusal of the policy: a call it refuses will
// be refused again, so callers treat it as permanent rather than retrying.
var ErrRefused = errors.New("refused by the outbound policy")

// refusal carries its own message and matches ErrRefused.
type refusal struct{ msg string }

func (r *refusal) Error() string        { return r.msg }
func (r *refusal) Is(target error) bool { return target == ErrRefused }

// Refusedf formats a refusal: an error that matches ErrRefused, for
// callers that enforce more of the policy themselves (redirect rules).
func Refusedf(format string, args ...any) error {
	return &refusal{msg: fmt.Sprintf(format, args...)}
}

// metadataAddrs are cloud metadata endpoints, reachable only when listed
// exactly in AllowHosts.
var metadataAddrs = []netip.Addr{
	netip.MustParseAddr("169.254.169.254"), netip.MustParseAddr("fd00:ec2::254"), netip.MustParseAddr("100.100.100.200"),
}

// CheckURL refuses a URL the policy does not allow before any connection.
func (o Policy) CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return Refusedf("%q is not an absolute URL", raw)
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !o.AllowHTTP && !o.hostListed(u.Host) {
			return Refusedf("only https URLs may be called (setting outbound.allow_http)")
		}
	default:
		return Refusedf("scheme %q is not allowed", u.Scheme)
	}
	if ip, err := netip.ParseAddr(strings.Trim(u.Hostname(), "[]")); err == nil {
		return o.checkAddr(u.Host, ip)
	}
	return nil
}

func (o Policy) hostListed(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	return slices.Contains(o.AllowHosts, hostport) || slices.Contains(o.AllowHosts, strings.Trim(host, "[]"))
}

// checkAddr refuses internal addresses of a host not listed.
func (o Policy) checkAddr(hostport string, ip netip.Addr) error {
	ip = ip.Unmap()
	if slices.Contains(metadataAddrs, ip) {
		if !slices.Contains(o.AllowHosts, ip.String()) && !slices.Contains(o.AllowHosts, hostport) {
			return Refusedf("address %s is a cloud metadata endpoint", ip)
		}
		return nil
	}
	internal := ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsPrivate() ||
		ip.IsUnspecified() || ip.IsMulticast()
	if internal && !o.hostListed(hostport) {
		return Refusedf("address %s is internal; an admin may allow its host in setting outbound.allow_hosts", ip)
	}
	return nil
}

// DialContext connects to addr after checking, once the name is
// resolved, that the address is one the policy allows.
func (o Policy) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	d := net.Dialer{Timeout: 10 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return err
		}
		if o.hostListed(addr) {
			return nil
		}
		return o.checkAddr(addr, ap.Addr())
	}}
	return d.DialContext(ctx, network, addr)
}

// Client returns an HTTP client whose every connection, redirects
// included, is checked against the policy after name resolution, so a
// name that resolves to an internal address is refused too.
func (o Policy) Client(timeout time.Duration) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	tr.DialContext = o.DialContext
	return &http.Client{Timeout: timeout, Transport: tr, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 3 {
			return Refusedf("too many redirects")
		}
		return o.CheckURL(req.URL.String())
	}}
}

// Setting is the key of the setting that holds the policy.
const Setting = "outbound"

// FromStore reads the outbound policy from the stored setting at
// each call; without one, the defaults hold.
func FromStore(st *store.Store) func(context.Context) Policy {
	return func(ctx context.Context) Policy {
		var o Policy
		row, err := st.GetSetting(ctx, Setting)
		if err != nil {
			return o
		}
		if b, err := json.Marshal(row.Value.V); err == nil {
			_ = json.Unmarshal(b, &o)
		}
		return o
	}
}
