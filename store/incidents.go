package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// NewIncident holds what a caller supplies to create an incident.
type NewIncident struct {
	Title        string
	IncidentType string
	Source       string
	Severity     string
	Description  string
	Assignee     string
	RawData      map[string]any
	CreatedBy    string
}

// FormatIncidentNumber renders INC-<year>-<sequence> with at least four digits.
func FormatIncidentNumber(year int, seq int64) string {
	return fmt.Sprintf("INC-%d-%04d", year, seq)
}

// CreateIncident allocates the next number of the current UTC year and
// inserts the incident in the same transaction, so numbers are unique and
// gap-free even under concurrent creation.
func (s *Store) CreateIncident(ctx context.Context, in NewIncident) (*Incident, error) {
	inc := newIncidentRow(in)
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return s.insertIncident(tx, inc)
	})
	if err != nil {
		return nil, fmt.Errorf("create incident: %w", translate(err))
	}
	return inc, nil
}

// createIncidentTx builds and inserts an incident inside tx; adjust sets
// fields NewIncident does not carry.
func (s *Store) createIncidentTx(tx *gorm.DB, in NewIncident, adjust func(*Incident)) (*Incident, error) {
	inc := newIncidentRow(in)
	adjust(inc)
	if err := s.insertIncident(tx, inc); err != nil {
		return nil, err
	}
	return inc, nil
}

// insertIncident numbers the incident and inserts it. When playbooks are
// set to run on its type, starting them is queued in the same transaction,
// so a new incident never misses its automatic runs.
func (s *Store) insertIncident(tx *gorm.DB, inc *Incident) error {
	seq, err := nextIncidentSeq(tx, inc.NumberYear)
	if err != nil {
		return err
	}
	inc.NumberSeq = seq
	inc.IncidentNumber = FormatIncidentNumber(inc.NumberYear, seq)
	if err := tx.Create(inc).Error; err != nil {
		return err
	}
	if err := recordEvent(tx, EventIncidentCreated, inc, nil); err != nil {
		return err
	}
	var auto int64
	err = tx.Model(&Playbook{}).
		Where("enabled = ? AND auto_run = ? AND lower(trigger_incident_type) = ?", true, true, strings.ToLower(inc.IncidentType)).
		Count(&auto).Error
	if err != nil || auto == 0 {
		return err
	}
	return tx.Create(newIntakeItem(IntakeAutoRun, inc.CreatedBy, "", inc.ID)).Error
}

// newIncidentRow fills a new, open incident; the number is allocated on insert.
func newIncidentRow(in NewIncident) *Incident {
	now := Now()
	raw := in.RawData
	if raw == nil {
		raw = map[string]any{}
	}
	return &Incident{
		ID:                 uuid.NewString(),
		Title:              in.Title,
		Occurrences:        1,
		NumberYear:         now.Year(),
		IncidentType:       in.IncidentType,
		Severity:           in.Severity,
		SeverityRank:       SeverityRank(in.Severity),
		Status:             StatusOpen,
		Source:             in.Source,
		Description:        in.Description,
		Assignee:           in.Assignee,
		RawData:            NewJSON(raw),
		RecommendedActions: NewJSON([]string{}),
		CreatedBy:          in.CreatedBy,
		CreatedAt:          now,
		UpdatedAt:          now,
	}
}

// nextIncidentSeq increments the year's counter. The upsert takes the row
// lock that concurrent creators queue on until this transaction ends.
func nextIncidentSeq(tx *gorm.DB, year int) (int64, error) {
	var seq int64
	err := tx.Raw(`INSERT INTO incident_counters (year, last_seq) VALUES (?, 1)
		ON CONFLICT (year) DO UPDATE SET last_seq = incident_counters.last_seq + 1
		RETURNING last_seq`, year).Scan(&seq).Error
	if err != nil {
		return 0, fmt.Errorf("allocate incident number: %w", err)
	}
	return seq, nil
}

// GetIncident reads one incident with all its fields.
func (s *Store) GetIncident(ctx context.Context, id string) (*Incident, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	var inc Incident
	if err := s.db.WithContext(ctx).Take(&inc, "id = ?", id).Error; err != nil {
		return nil, translate(err)
	}
	return &inc, nil
}

// IncidentsByID reads the list columns of the given incidents, keyed by
// id; ids that do not exist are absent.
func (s *Store) IncidentsByID(ctx context.Context, ids []string) (map[string]Incident, error) {
	out := make(map[string]Incident, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []Incident
	if err := s.db.WithContext(ctx).Select(listColumns).Where("id IN ?", ids).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("read incidents: %w", err)
	}
	for _, r := range rows {
		out[r.ID] = r
	}
	return out, nil
}

// IncidentFilter selects and orders a page of incidents. Zero values mean
// "no filter"; Sort is a column name from IncidentSortFields, with a leading
// "-" for descending.
type IncidentFilter struct {
	Status        string
	Severity      string
	Type          string
	CreatedAfter  *time.Time
	CreatedBefore *time.Time
	// Search matches an incident number by prefix (an index range) or a
	// title by substring among the newest SearchWindow incidents.
	Search  string
	Sort    string
	Page    int
	PerPage int
}

// IncidentSortFields maps the sort names the API accepts to columns.
var IncidentSortFields = map[string]string{
	"created_at":      "created_at",
	"updated_at":      "updated_at",
	"severity":        "severity_rank",
	"status":          "status",
	"incident_type":   "incident_type",
	"incident_number": "number_year, number_seq",
	"triaged_at":      "triaged_at",
}

// listColumns are the fields a list row carries; raw data stays behind.
var listColumns = []string{
	"id", "incident_number", "title", "incident_type", "severity", "status", "source",
	"created_at", "updated_at", "triaged_at",
}

// ListIncidents returns one page of incidents and the total matching count.
func (s *Store) ListIncidents(ctx context.Context, f IncidentFilter) ([]Incident, int64, error) {
	q := s.db.WithContext(ctx).Model(&Incident{})
	pinned := pinnedColumns(f)
	for _, eq := range equalityFilters(f) {
		if pinned != nil {
			q = q.Where(eq.column+" BETWEEN ? AND ?", eq.value, eq.value)
		} else {
			q = q.Where(eq.column+" = ?", eq.value)
		}
	}
	if f.CreatedAfter != nil {
		q = q.Where("created_at > ?", f.CreatedAfter.UTC())
	}
	if f.CreatedBefore != nil {
		q = q.Where("created_at < ?", f.CreatedBefore.UTC())
	}
	order, err := incidentOrder(f.Sort)
	if err != nil {
		return nil, 0, err
	}
	if pinned != nil {
		order = pinnedOrder(pinned, order)
	}
	// Each statement below starts from the filters alone: a chained call
	// on a query that is not a session would change it for the next.
	q = q.Session(&gormSession)
	offset := (f.Page - 1) * f.PerPage
	if f.Search != "" {
		return searchPage(s.searchIncidents(q, f.Search), order, f.PerPage, offset)
	}
	if f.CreatedAfter != nil || f.CreatedBefore != nil {
		// A time range is counted over its index range.
		var total int64
		if err := q.Count(&total).Error; err != nil {
			return nil, 0, fmt.Errorf("count incidents: %w", err)
		}
		rows, err := s.incidentPage(ctx, q, order, f.PerPage, offset, nil)
		return incidentsOf(rows), total, err
	}
	// The total rides in the page's own statement, one round trip fewer on
	// the list everyone opens; only an empty page asks for it separately.
	counts := s.incidentCounts(ctx, f)
	rows, err := s.incidentPage(ctx, q, order, f.PerPage, offset, counts)
	if err != nil || len(rows) > 0 {
		return incidentsOf(rows), firstTotal(rows), err
	}
	var total int64
	if err := counts.Scan(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("count incidents: %w", err)
	}
	return []Incident{}, total, nil
}

// countedIncident is a list row with the list's total beside it.
type countedIncident struct {
	Incident
	ListTotal int64
}

// incidentPage reads one page of list rows in order, each carrying the
// value of total (a one-value subquery) when it is not nil.
func (s *Store) incidentPage(ctx context.Context, q *gorm.DB, order listOrder, limit, offset int, total *gorm.DB) ([]countedIncident, error) {
	columns, args := strings.Join(listColumns, ", "), []any{}
	if total != nil {
		columns, args = columns+", (?) AS list_total", []any{total}
	}
	var page *gorm.DB
	keyset, from, ordered := order.keyset()
	by := order.String()
	switch {
	case offset == 0:
		page = q.Select(columns, args...).Order(by).Limit(limit)
	case ordered:
		// A deeper page finds the row it starts at from the index that
		// matches the sort (an index-only scan skips the earlier pages
		// without reading their rows), then reads its own rows onwards in
		// index order, in the same statement.
		start := q.Select(keyset).Order(by).Limit(1).Offset(offset)
		page = q.Select(columns, args...).Where("("+keyset+") "+from+" (?)", start).
			Order(by).Limit(limit)
	default:
		// A nullable sort column cannot be compared as a row: the page
		// finds its keys from the index first, then reads those rows.
		keys := q.Select("id").Order(by).Limit(limit).Offset(offset)
		page = s.db.WithContext(ctx).Model(&Incident{}).Select(columns, args...).
			Where("id IN (?)", keys).Order(by)
	}
	var rows []countedIncident
	if err := page.Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list incidents: %w", err)
	}
	return rows, nil
}

// incidentsOf drops the totals from counted rows.
func incidentsOf(rows []countedIncident) []Incident {
	out := make([]Incident, len(rows))
	for i := range rows {
		out[i] = rows[i].Incident
	}
	return out
}

// firstTotal is the total the rows carry, 0 when there are none.
func firstTotal(rows []countedIncident) int64 {
	if len(rows) == 0 {
		return 0
	}
	return rows[0].ListTotal
}

// equalityFilter is one column a list filter fixes to a value.
type equalityFilter struct{ column, value string }

// equalityFilters lists the list's equality filters in index column order.
func equalityFilters(f IncidentFilter) []equalityFilter {
	var out []equalityFilter
	for _, eq := range []equalityFilter{{"status", f.Status}, {"severity", f.Severity}, {"incident_type", f.Type}} {
		if eq.value != "" {
			out = append(out, eq)
		}
	}
	return out
}

// createdIndexPrefixes are the equality columns that lead an index ending
// in (created_at, id).
var createdIndexPrefixes = [][]string{{"status"}, {"severity"}, {"incident_type"}, {"status", "severity"}}

// pinnedColumns returns the equality-filtered columns when a page in
// creation order is best read from the index they lead, else nil.
//
// With col = v, the planner treats the column as a constant and may walk
// the created_at index instead, filtering as it goes; it assumes the
// matching rows are spread evenly over time. They are not (the newest
// incidents are open, the resolved ones old), so the first resolved
// incident lies behind tens of thousands of newer ones. Written as the
// equivalent col BETWEEN v AND v with the column leading the ORDER BY,
// only the index the columns lead returns rows in that order, and the
// page is a range read of it.
func pinnedColumns(f IncidentFilter) []string {
	if f.CreatedAfter != nil || f.CreatedBefore != nil || f.Search != "" {
		return nil
	}
	if sort := strings.TrimPrefix(f.Sort, "-"); sort != "" && sort != "created_at" {
		return nil
	}
	var cols []string
	for _, eq := range equalityFilters(f) {
		cols = append(cols, eq.column)
	}
	for _, prefix := range createdIndexPrefixes {
		if slices.Equal(prefix, cols) {
			return cols
		}
	}
	return nil
}

// pinnedOrder puts the pinned columns, each holding one value, ahead of a
// creation order in its direction; the rows' order is unchanged.
func pinnedOrder(cols []string, order listOrder) listOrder {
	return listOrder{columns: append(slices.Clone(cols), order.columns...), desc: order.desc}
}

// searchPage answers a search's page and its total in one statement, so
// the search runs once: count(*) OVER () counts the matches before the
// page is cut. Only a page past the last match counts them separately.
func searchPage(q *gorm.DB, order listOrder, limit, offset int) ([]Incident, int64, error) {
	q = q.Session(&gormSession)
	var found []countedIncident
	err := q.Select(strings.Join(listColumns, ", ") + ", count(*) OVER () AS list_total").
		Order(order.String()).Limit(limit).Offset(offset).Find(&found).Error
	if err != nil {
		return nil, 0, fmt.Errorf("search incidents: %w", err)
	}
	if len(found) == 0 {
		var total int64
		if offset > 0 {
			if err := q.Count(&total).Error; err != nil {
				return nil, 0, fmt.Errorf("count incidents: %w", err)
			}
		}
		return []Incident{}, total, nil
	}
	return incidentsOf(found), firstTotal(found), nil
}

// incidentCounts is the statement that answers a list's total without a
// time range or search: it sums the trigger-maintained incident_counts
// rows, so the total costs the same at a million incidents as at ten.
// Without a filter PostgreSQL sums its 16 incident_totals rows instead of
// every kind's shards. Searches count with their page (searchPage).
func (s *Store) incidentCounts(ctx context.Context, f IncidentFilter) *gorm.DB {
	if s.dialect == DialectPostgres && f.Status == "" && f.Severity == "" && f.Type == "" {
		return s.db.WithContext(ctx).Table("incident_totals").Select("COALESCE(SUM(n), 0)")
	}
	c := s.db.WithContext(ctx).Table("incident_counts").Select("COALESCE(SUM(n), 0)")
	if f.Status != "" {
		c = c.Where("status = ?", f.Status)
	}
	if f.Severity != "" {
		c = c.Where("severity = ?", f.Severity)
	}
	if f.Type != "" {
		c = c.Where("incident_type = ?", f.Type)
	}
	return c
}

// SearchWindow bounds a title search to the newest incidents, so a word
// typed in the search box costs the same at a million incidents as at ten
// thousand; older ones are reached by number or by narrowing the dates.
const SearchWindow = 10000

// searchIncidents adds the search: an incident number prefix, which the
// pattern index on incident_number answers as a range, or a title
// substring (case-insensitive) within the newest SearchWindow incidents.
func (s *Store) searchIncidents(q *gorm.DB, text string) *gorm.DB {
	text = strings.TrimSpace(text)
	byNumber := s.db.Model(&Incident{}).Select("id").
		Where(`incident_number LIKE ? ESCAPE '\'`, likeEscape(strings.ToUpper(text))+"%")
	recent := s.db.Model(&Incident{}).Select("id, title").Order("created_at DESC, id DESC").Limit(SearchWindow)
	byTitle := s.db.Table("(?) AS recent", recent).Select("id").
		Where(`lower(title) LIKE ? ESCAPE '\'`, "%"+likeEscape(strings.ToLower(text))+"%")
	// Two index-driven lookups joined by UNION: an OR of the two would
	// leave the planner no index for the whole condition.
	return q.Where("id IN (? UNION ?)", byNumber, byTitle)
}

// likeEscape makes LIKE's wildcards in user text match themselves.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(s)
}

// listOrder is a list's ORDER BY: columns all sorted the same way, the
// last ones breaking ties so that no two rows compare equal.
type listOrder struct {
	columns []string
	desc    bool
}

// String renders the ORDER BY clause.
func (o listOrder) String() string {
	dir := " ASC"
	if o.desc {
		dir = " DESC"
	}
	return strings.Join(o.columns, dir+", ") + dir
}

// keyset returns the columns as a row and the comparison that keeps a row
// and those after it; ok is false when a column may be null (triaged_at),
// which a row comparison would drop.
func (o listOrder) keyset() (row, from string, ok bool) {
	if slices.Contains(o.columns, "triaged_at") {
		return "", "", false
	}
	from = ">="
	if o.desc {
		from = "<="
	}
	return strings.Join(o.columns, ", "), from, true
}

// incidentOrder builds the order from a whitelisted sort name. Ties break
// by created_at and then id in the same direction, matching the indexes,
// so pages never overlap and any page is an index range scan.
func incidentOrder(sort string) (listOrder, error) {
	if sort == "" {
		sort = "-created_at"
	}
	name, desc := strings.CutPrefix(sort, "-")
	col, ok := IncidentSortFields[name]
	if !ok {
		return listOrder{}, fmt.Errorf("%w: unknown sort field %q", ErrInvalid, name)
	}
	o := listOrder{columns: strings.Split(col, ", "), desc: desc}
	switch name {
	case "incident_number": // unique already
	case "created_at":
		o.columns = append(o.columns, "id")
	default:
		o.columns = append(o.columns, "created_at", "id")
	}
	return o, nil
}

// IncidentUpdate lists the fields a caller may change; nil means unchanged.
type IncidentUpdate struct {
	Severity   *string
	Status     *string
	Resolution *string
	Assignee   *string
}

// UpdateIncident applies the non-nil fields and returns the updated row.
func (s *Store) UpdateIncident(ctx context.Context, id string, u IncidentUpdate) (*Incident, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	changes := map[string]any{"updated_at": Now()}
	if u.Severity != nil {
		changes["severity"] = *u.Severity
		changes["severity_rank"] = SeverityRank(*u.Severity)
	}
	if u.Status != nil {
		changes["status"] = *u.Status
	}
	if u.Resolution != nil {
		changes["resolution"] = *u.Resolution
	}
	if u.Assignee != nil {
		changes["assignee"] = *u.Assignee
	}
	var inc Incident
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var before Incident
		if err := tx.Select("status").Take(&before, "id = ?", id).Error; err != nil {
			return err
		}
		return changeIncident(tx, id, before.Status, changes, &inc)
	})
	if err != nil {
		return nil, fmt.Errorf("update incident: %w", translate(err))
	}
	return &inc, nil
}

// changeIncident writes changes to an incident in tx, reads it back into
// inc and records the change: incident_resolved when it moved the
// incident from previousStatus to resolved, incident_updated otherwise.
func changeIncident(tx *gorm.DB, id, previousStatus string, changes map[string]any, inc *Incident) error {
	if err := tx.Model(&Incident{}).Where("id = ?", id).Updates(changes).Error; err != nil {
		return err
	}
	if err := tx.Take(inc, "id = ?", id).Error; err != nil {
		return err
	}
	event := EventIncidentUpdated
	if inc.Status == StatusResolved && previousStatus != StatusResolved {
		event = EventIncidentResolved
	}
	return recordEvent(tx, event, inc, map[string]any{"previous_status": previousStatus})
}

// DeleteIncident removes an incident and its triage records.
func (s *Store) DeleteIncident(ctx context.Context, id string) error {
	if err := checkID(id); err != nil {
		return err
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("incident_id = ?", id).Delete(&Triage{}).Error; err != nil {
			return err
		}
		res := tx.Where("id = ?", id).Delete(&Incident{})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return ErrNotFound
		}
		return nil
	})
	return translate(err)
}

// checkID answers ErrNotFound for anything that is not a UUID, so a
// malformed id never reaches the database.
func checkID(id string) error {
	if _, err := uuid.Parse(id); err != nil {
		return ErrNotFound
	}
	return nil
}
