package api_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/vigil-soc/vigil/store"
)

// allPages walks a paged list to its end, 100 entries at a time.
func allPages(t *testing.T, path, key string) []response {
	t.Helper()
	var pages []response
	for page := 1; ; page++ {
		r := call(t, http.MethodGet, fmt.Sprintf("%s?per_page=100&page=%d", path, page), key, nil)
		expectStatus(t, r, http.StatusOK)
		pages = append(pages, r)
		if len(r.Body["data"].([]any)) < 100 {
			return pages
		}
	}
}

// TestListsArePagedWithABoundedDepth: page went up to 2^20, so one request
// could make the database skip through about 10^8 rows; and the user, key
// and playbook version lists answered everything at once.
func TestListsArePagedWithABoundedDepth(t *testing.T) {
	keyFor(t, store.RoleViewer) // at least two users and keys
	lists := []string{
		"/api/incidents", "/api/audit", "/api/users", "/api/api-keys",
		"/api/playbooks/" + builtinPlaybookID(t, "Malware containment") + "/versions",
	}
	for _, list := range lists {
		t.Run(list, func(t *testing.T) {
			for _, q := range []string{"page=1048576", "page=101&per_page=100", "page=501", "page=10001&per_page=1"} {
				r := call(t, http.MethodGet, list+"?"+q, env.adminKey, nil)
				expectStatus(t, r, http.StatusUnprocessableEntity)
				if _, ok := r.errDetails()["page"]; !ok {
					t.Fatalf("%s: details do not name page: %s", q, r.Raw)
				}
			}
			for _, q := range []string{"page=100&per_page=100", "page=500", "page=10000&per_page=1"} {
				expectStatus(t, call(t, http.MethodGet, list+"?"+q, env.adminKey, nil), http.StatusOK)
			}
			r := call(t, http.MethodGet, list+"?per_page=1", env.adminKey, nil)
			expectStatus(t, r, http.StatusOK)
			meta, _ := r.Body["meta"].(map[string]any)
			total, _ := meta["total"].(float64)
			if meta["page"] != 1.0 || meta["per_page"] != 1.0 || total < 1 || len(r.Body["data"].([]any)) != 1 {
				t.Fatalf("first page of one: %s", r.Raw)
			}
			if list == "/api/users" || list == "/api/api-keys" {
				second := call(t, http.MethodGet, list+"?per_page=1&page=2", env.adminKey, nil)
				expectStatus(t, second, http.StatusOK)
				if total < 2 || string(mustJSON(second.Body["data"])) == string(mustJSON(r.Body["data"])) {
					t.Fatalf("second page repeats the first: %s", second.Raw)
				}
			}
			expectStatus(t, call(t, http.MethodGet, list+"?per_page=101", env.adminKey, nil), http.StatusUnprocessableEntity)
		})
	}
}

func TestListsDefaultToTwentyPerPage(t *testing.T) {
	for range 21 {
		keyFor(t, store.RoleViewer)
	}
	r := call(t, http.MethodGet, "/api/users", env.adminKey, nil)
	expectStatus(t, r, http.StatusOK)
	if n := len(r.Body["data"].([]any)); n != 20 || r.Body["meta"].(map[string]any)["per_page"] != 20.0 {
		t.Fatalf("default page holds %d users: %v", n, r.Body["meta"])
	}
}
