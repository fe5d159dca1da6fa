package store

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"
)

// alertBatch does the work of a batch of webhook alerts in a few
// statements for the whole batch rather than a few per alert: one insert
// of the replay records, one look-up of earlier incidents per source, one
// counter update, one insert of the incidents and one of the queue items.
// Alerts with an intake id (from the queue) are not batched.
type alertBatch struct {
	s   *Store
	tx  *gorm.DB
	in  []AlertIncident
	out []AlertOutcome
}

// createAlertBatchTx runs the batch in tx. A replayed signature makes an
// ErrReplay outcome; any other error fails the whole batch.
func (s *Store) createAlertBatchTx(tx *gorm.DB, in []AlertIncident) ([]AlertOutcome, error) {
	b := &alertBatch{s: s, tx: tx, in: in, out: make([]AlertOutcome, len(in))}
	if err := b.rememberReplays(); err != nil {
		return nil, err
	}
	dups, err := b.findDuplicates()
	if err != nil {
		return nil, err
	}
	if err := b.create(dups); err != nil {
		return nil, err
	}
	return b.out, nil
}

// live reports whether alert i is still to be created (not refused).
func (b *alertBatch) live(i int) bool { return b.out[i].Err == nil }

// rememberReplays records every signature of the batch in one statement;
// a signature already recorded (or used earlier in the batch) refuses its
// alert and writes nothing for it.
func (b *alertBatch) rememberReplays() error {
	var rows []webhookReplay
	first := map[string]int{}
	for i, a := range b.in {
		if a.Replay == nil {
			continue
		}
		if _, seen := first[a.Replay.Key]; seen {
			b.out[i].Err = ErrReplay
			continue
		}
		first[a.Replay.Key] = i
		rows = append(rows, webhookReplay{SignatureHash: a.Replay.Key, Source: a.ExternalSource, ExpiresAt: a.Replay.ExpiresAt})
	}
	if len(rows) == 0 {
		return nil
	}
	// One order for every batch, so two batches never wait on each
	// other's signatures crosswise.
	slices.SortFunc(rows, func(a, b webhookReplay) int { return strings.Compare(a.SignatureHash, b.SignatureHash) })
	var sql strings.Builder
	args := make([]any, 0, 3*len(rows))
	sql.WriteString("INSERT INTO webhook_replays (signature_hash, source, expires_at) VALUES ")
	for k, r := range rows {
		if k > 0 {
			sql.WriteString(", ")
		}
		sql.WriteString("(?, ?, ?)")
		args = append(args, r.SignatureHash, r.Source, r.ExpiresAt)
	}
	sql.WriteString(" ON CONFLICT (signature_hash) DO NOTHING RETURNING signature_hash")
	var kept []string
	if err := b.tx.Raw(sql.String(), args...).Scan(&kept).Error; err != nil {
		return err
	}
	fresh := map[string]bool{}
	for _, k := range kept {
		fresh[k] = true
	}
	for key, i := range first {
		if !fresh[key] {
			b.out[i].Err = ErrReplay
		}
	}
	return nil
}

// dupKey names an upstream alert.
type dupKey struct{ source, id string }

// findDuplicates returns, per upstream alert of the batch, the newest
// incident it already has within its dedup window. On PostgreSQL the
// upstream alerts are locked first, in one order, so concurrent batches
// cannot both create an incident for one of them.
func (b *alertBatch) findDuplicates() (map[dupKey]*Incident, error) {
	bySource := map[string][]string{}
	window := map[string]time.Duration{}
	open := map[string]bool{}
	var locks []string
	for i, a := range b.in {
		if !b.live(i) || a.ExternalID == "" || a.DedupWindow <= 0 {
			continue
		}
		bySource[a.ExternalSource] = append(bySource[a.ExternalSource], a.ExternalID)
		window[a.ExternalSource] = max(window[a.ExternalSource], a.DedupWindow)
		open[a.ExternalSource] = open[a.ExternalSource] || a.JoinUnresolved
		locks = append(locks, a.ExternalSource+"\n"+a.ExternalID)
	}
	found := map[dupKey]*Incident{}
	if len(locks) == 0 {
		return found, nil
	}
	if b.s.dialect == DialectPostgres {
		if err := lockUpstreamAlerts(b.tx, locks); err != nil {
			return nil, err
		}
	}
	for source, ids := range bySource {
		var rows []Incident
		err := b.tx.Where("external_source = ? AND external_id IN ?", source, ids).
			Where(recentOrOpen(Now().Add(-window[source]), open[source])).
			Order("created_at DESC").Find(&rows).Error
		if err != nil {
			return nil, err
		}
		for k := range rows {
			key := dupKey{source, rows[k].ExternalID}
			if found[key] == nil {
				found[key] = &rows[k]
			}
		}
	}
	return found, nil
}

// lockSep separates the keys of lockUpstreamAlerts in one parameter.
const lockSep = "\x1e"

// lockUpstreamAlerts takes the advisory lock of each upstream alert, in
// sorted order, in one statement (the array is scanned in order).
func lockUpstreamAlerts(tx *gorm.DB, keys []string) error {
	slices.Sort(keys)
	keys = slices.Compact(keys)
	one := !slices.ContainsFunc(keys, func(k string) bool { return strings.Contains(k, lockSep) })
	if one {
		return tx.Exec("SELECT count(pg_advisory_xact_lock(hashtext(k))) FROM unnest(string_to_array(?, ?)) AS t(k)",
			strings.Join(keys, lockSep), lockSep).Error
	}
	for _, k := range keys {
		if err := tx.Exec("SELECT pg_advisory_xact_lock(hashtext(?))", k).Error; err != nil {
			return err
		}
	}
	return nil
}

// create joins each alert to its earlier incident (found, or made earlier
// in the batch) or makes a new one, numbering the new ones with one
// counter update, and queues their automation.
func (b *alertBatch) create(found map[dupKey]*Incident) error {
	var fresh []*Incident
	joined := map[string]int{} // extra occurrences per earlier incident id
	for i, a := range b.in {
		if !b.live(i) {
			continue
		}
		key := dupKey{a.ExternalSource, a.ExternalID}
		dedup := a.ExternalID != "" && a.DedupWindow > 0
		if inc := found[key]; dedup && inc != nil {
			b.out[i].Incident, b.out[i].Deduplicated = inc, true
			joined[inc.ID]++
			continue
		}
		inc := newIncidentRow(a.NewIncident)
		inc.ExternalSource, inc.ExternalID = a.ExternalSource, a.ExternalID
		now := inc.CreatedAt
		inc.LastSeenAt = &now
		fresh = append(fresh, inc)
		b.out[i].Incident = inc
		if dedup {
			found[key] = inc
		}
	}
	// Later alerts of the batch joined to an incident made in it count on
	// its row before it is inserted.
	for _, inc := range fresh {
		if n := joined[inc.ID]; n > 0 {
			inc.Occurrences += n
			delete(joined, inc.ID)
		}
	}
	if err := b.joinEarlier(joined); err != nil {
		return err
	}
	if err := b.insert(fresh); err != nil {
		return err
	}
	b.copyJoined()
	return nil
}

// copyJoined gives every outcome its own copy of its incident, with the
// occurrences it made: one for the alert that created an incident, one
// more for each alert that joined it, in batch order.
func (b *alertBatch) copyJoined() {
	now := Now()
	seen := map[string]int{}
	for i := range b.out {
		inc := b.out[i].Incident
		if !b.live(i) || inc == nil {
			continue
		}
		c := *inc
		if b.out[i].Deduplicated {
			if _, ok := seen[c.ID]; !ok { // made before the batch
				seen[c.ID] = c.Occurrences
			}
			seen[c.ID]++
			c.Occurrences, c.LastSeenAt, c.UpdatedAt = seen[c.ID], &now, now
		} else {
			seen[c.ID] = 1
			c.Occurrences = 1
		}
		b.out[i].Incident = &c
	}
}

// joinEarlier counts the extra occurrences on incidents made before the
// batch.
func (b *alertBatch) joinEarlier(joined map[string]int) error {
	ids := make([]string, 0, len(joined))
	for id := range joined {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	now := Now()
	for _, id := range ids {
		if err := b.tx.Model(&Incident{}).Where("id = ?", id).Updates(map[string]any{
			"occurrences": gorm.Expr("occurrences + ?", joined[id]), "last_seen_at": now, "updated_at": now,
		}).Error; err != nil {
			return err
		}
	}
	return nil
}

// insert numbers the new incidents from one counter update, inserts them
// in one statement and queues their playbook and auto-run playbooks in
// another, and their triage with its run records in two more.
func (b *alertBatch) insert(fresh []*Incident) error {
	if len(fresh) == 0 {
		return nil
	}
	year := fresh[0].NumberYear
	last, err := addIncidentSeqs(b.tx, year, len(fresh))
	if err != nil {
		return err
	}
	for k, inc := range fresh {
		inc.NumberYear = year
		inc.NumberSeq = last - int64(len(fresh)-1-k)
		inc.IncidentNumber = FormatIncidentNumber(year, inc.NumberSeq)
	}
	if err := b.tx.Create(fresh).Error; err != nil {
		return err
	}
	if err := recordCreatedEvents(b.tx, fresh); err != nil {
		return err
	}
	autoTypes, err := autoRunTypes(b.tx)
	if err != nil {
		return err
	}
	var queue, triages []*IntakeItem
	for i, a := range b.in {
		inc := b.out[i].Incident
		if !b.live(i) || b.out[i].Deduplicated || inc == nil {
			continue
		}
		if autoTypes[strings.ToLower(inc.IncidentType)] {
			queue = append(queue, newIntakeItem(IntakeAutoRun, inc.CreatedBy, "", inc.ID))
		}
		switch {
		case a.QueuePlaybook != "":
			queue = append(queue, newIntakeItem(IntakePlaybook, a.ExternalSource, a.QueuePlaybook, inc.ID))
		case a.QueueTriage:
			triages = append(triages, newIntakeItem(IntakeTriage, a.ExternalSource, "", inc.ID))
		}
	}
	if len(queue) > 0 {
		if err := b.tx.Create(queue).Error; err != nil {
			return err
		}
	}
	return queueTriages(b.tx, triages)
}

// addIncidentSeqs takes n numbers from the year's counter and returns the
// last; the row lock is held until the transaction ends, as for one.
func addIncidentSeqs(tx *gorm.DB, year, n int) (int64, error) {
	var last int64
	err := tx.Raw(`INSERT INTO incident_counters (year, last_seq) VALUES (?, ?)
		ON CONFLICT (year) DO UPDATE SET last_seq = incident_counters.last_seq + ?
		RETURNING last_seq`, year, n, n).Scan(&last).Error
	if err != nil {
		return 0, fmt.Errorf("allocate incident numbers: %w", err)
	}
	return last, nil
}

// autoRunTypes lists, lower-cased, the incident types some enabled
// auto-run playbook triggers on.
func autoRunTypes(tx *gorm.DB) (map[string]bool, error) {
	var types []string
	err := tx.Model(&Playbook{}).Where("enabled = ? AND auto_run = ?", true, true).
		Distinct().Pluck("lower(trigger_incident_type)", &types).Error
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(types))
	for _, t := range types {
		out[t] = true
	}
	return out, nil
}

// errBatchOrder guards against a batch that mixes in queued alerts.
var errBatchOrder = errors.New("queued alerts are not batched")
