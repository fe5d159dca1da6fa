package web

import (
	"golang.org/x/sync/errgroup"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
)

// incidentRow is an incident as GET /api/incidents lists it.
type incidentRow struct {
	ID             string     `json:"id"`
	IncidentNumber string     `json:"incident_number"`
	Title          string     `json:"title"`
	IncidentType   string     `json:"incident_type"`
	Severity       string     `json:"severity"`
	Status         string     `json:"status"`
	Source         string     `json:"source"`
	CreatedAt      time.Time  `json:"created_at"`
	UpdatedAt      time.Time  `json:"updated_at"`
	TriagedAt      *time.Time `json:"triaged_at"`
}

type incidentPage struct {
	Data []incidentRow `json:"data"`
	Meta struct {
		Page    int   `json:"page"`
		PerPage int   `json:"per_page"`
		Total   int64 `json:"total"`
	} `json:"meta"`
}

// statusCount is one entry of the counts above the list.
type statusCount struct {
	Status, Label, Link string
	N                   int64
	Current             bool
}

type sortLink struct{ Label, Link, Dir string }

type incidentsData struct {
	Filter   url.Values
	Page     incidentPage
	Counts   []statusCount
	Sorts    map[string]sortLink
	Prev     string
	Next     string
	LastPage int64
	Err      *APIError
}

// incidentFilters are the list parameters the page passes to the API.
var incidentFilters = []string{"status", "severity", "type", "created_after", "created_before", "q", "sort", "page", "per_page"}

var incidentStatuses = []string{"open", "triaged", "resolved"}

func (d *Dashboard) incidents(c *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "Incidents", "incidents"
	f := url.Values{}
	for _, k := range incidentFilters {
		if val := c.Query(k); val != "" {
			f.Set(k, val)
		}
	}
	data := &incidentsData{Filter: f, Sorts: sortLinks(f)}
	v.Data = data
	// The counts per status under the other filters are asked for while
	// the page itself is: with a search, each is its own scan of the newest
	// incidents, so asking one after another would add their times.
	counts := d.statusCounts(c.Request, f)
	err := d.api.callRaw(c.Request, http.MethodGet, "/api/incidents"+query(clone(f)), &data.Page)
	if err != nil {
		// A bad filter is the user's to fix: show it above the list.
		if apiErr, ok := err.(*APIError); ok && apiErr.Status < 500 {
			data.Err = apiErr
			return "incidents", nil
		}
		return "", err
	}
	if data.Counts, err = counts(); err != nil {
		return "", err
	}
	m := data.Page.Meta
	if m.PerPage > 0 {
		data.LastPage = (m.Total + int64(m.PerPage) - 1) / int64(m.PerPage)
	}
	if m.Page > 1 {
		data.Prev = pageLink(f, m.Page-1)
	}
	if int64(m.Page) < data.LastPage {
		data.Next = pageLink(f, m.Page+1)
	}
	return "incidents", nil
}

// sortLinks builds each column header's link: ascending first, then
// descending when the column already sorts ascending.
func sortLinks(f url.Values) map[string]sortLink {
	out := map[string]sortLink{}
	cur := f.Get("sort")
	if cur == "" {
		cur = "-created_at"
	}
	for _, col := range []string{"incident_number", "severity", "status", "incident_type", "created_at"} {
		l := clone(f)
		l.Del("page")
		next, dir := col, ""
		switch cur {
		case col:
			next, dir = "-"+col, "ascending"
		case "-" + col:
			dir = "descending"
		}
		l.Set("sort", next)
		out[col] = sortLink{Link: "/incidents" + query(l), Dir: dir}
	}
	return out
}

func pageLink(f url.Values, page int) string {
	l := clone(f)
	l.Set("page", strconv.Itoa(page))
	return "/incidents" + query(l)
}

func clone(v url.Values) url.Values {
	out := url.Values{}
	for k, vals := range v {
		out[k] = append([]string(nil), vals...)
	}
	return out
}

// statusCounts starts one count per status under f's other filters (the
// API answers them from its maintained counters, or by the search) and
// returns a function that waits for them. Every incident has one of the
// statuses, so "all" is their sum.
func (d *Dashboard) statusCounts(from *http.Request, f url.Values) func() ([]statusCount, error) {
	all := clone(f)
	all.Del("status")
	all.Del("page")
	all.Del("sort")
	totals := make([]int64, len(incidentStatuses))
	var g errgroup.Group
	for i, st := range incidentStatuses {
		g.Go(func() error {
			cf := clone(all)
			cf.Set("status", st)
			cf.Set("per_page", "1")
			var pg incidentPage
			if err := d.api.callRaw(from, http.MethodGet, "/api/incidents"+query(cf), &pg); err != nil {
				return err
			}
			totals[i] = pg.Meta.Total
			return nil
		})
	}
	return func() ([]statusCount, error) {
		if err := g.Wait(); err != nil {
			return nil, err
		}
		counts := []statusCount{{Label: "all", Link: "/incidents" + query(all), Current: f.Get("status") == ""}}
		for i, st := range incidentStatuses {
			link := clone(all)
			link.Set("status", st)
			counts[0].N += totals[i]
			counts = append(counts, statusCount{Status: st, Label: st, N: totals[i],
				Link: "/incidents" + query(link), Current: f.Get("status") == st})
		}
		return counts, nil
	}
}
