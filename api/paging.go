package api

import (
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/store"
)

// Paging limits shared by every paged list.
const (
	defaultPerPage = 20
	maxPerPage     = 100
	// maxPageDepth caps page × per_page. Pages are read with OFFSET, which
	// makes the database walk every skipped row, so an unbounded page number
	// lets one cheap request cost a scan of the whole table. Older entries
	// are reached by narrowing the filters instead.
	maxPageDepth = 10000
)

// parsePaging reads page and per_page, recording bad values in bad.
func parsePaging(c *gin.Context, bad map[string]string) store.Page {
	p := store.Page{
		Page:    parseIntParam(c, bad, "page", 1, 1, maxPageDepth),
		PerPage: parseIntParam(c, bad, "per_page", defaultPerPage, 1, maxPerPage),
	}
	if bad["page"] == "" && bad["per_page"] == "" && p.Page*p.PerPage > maxPageDepth {
		bad["page"] = fmt.Sprintf("must be at most %d with per_page %d: only the first %d entries of a list are paged; narrow the filters to reach older ones",
			maxPageDepth/p.PerPage, p.PerPage, maxPageDepth)
	}
	return p
}

// parsePagingOnly answers a list that takes no other parameters.
func parsePagingOnly(c *gin.Context) (store.Page, error) {
	bad := map[string]string{}
	p := parsePaging(c, bad)
	if len(bad) > 0 {
		return p, validationError(bad)
	}
	return p, nil
}

// paged answers one page of a list with its meta.
func paged(data any, p store.Page, total int64) reply {
	return reply{status: http.StatusOK, raw: true, body: gin.H{
		"data": data,
		"meta": gin.H{"page": p.Page, "per_page": p.PerPage, "total": total},
	}}
}
