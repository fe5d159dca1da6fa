package store

import "gorm.io/gorm"

// Page selects one page of a list: Page counts from 1, PerPage rows each.
// A zero PerPage means the whole list, for callers inside the process.
type Page struct {
	Page    int
	PerPage int
}

// apply limits a query to the page.
func (p Page) apply(q *gorm.DB) *gorm.DB {
	if p.PerPage <= 0 {
		return q
	}
	return q.Limit(p.PerPage).Offset((max(p.Page, 1) - 1) * p.PerPage)
}
