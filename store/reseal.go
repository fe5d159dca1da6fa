package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"gorm.io/gorm"

	"github.com/vigil-soc/vigil/secrets"
)

// sealedSecrets lists every place in the database that holds a value sealed
// by a secrets.Box. A new sealed column or setting member is registered here
// and nowhere else; ResealSecrets (and so `vigil secrets rotate`) then
// re-seals it with every other secret.
var sealedSecrets = []sealedSecret{
	sealedColumn{tableName: "webhook_sources", key: "source", column: "secret_encrypted", context: secrets.ContextWebhookSecret},
	sealedColumn{tableName: "data_sources", key: "name", column: "credentials_encrypted", context: secrets.ContextDataSourceCredentials},
	sealedSettingMember{setting: "llm", path: []string{"api_key_encrypted"}, context: secrets.ContextLLMAPIKey},
	sealedColumn{tableName: "notification_channels", key: "id", column: "secrets_encrypted",
		context: NotificationSecretContext, contextByKey: true},
	sealedColumn{tableName: "connector_configs", key: "id", column: "secrets_encrypted",
		context: ConnectorSecretContext, contextByKey: true},
}

// NotificationSecretContext, followed by the channel id, is the context a
// notification channel's secrets are sealed under.
const NotificationSecretContext = "notify-channel:"

// Resealer turns a value sealed under one key into the same secret sealed
// under another, with the context it was sealed with, and reports whether
// the value changed (false when it is already sealed under the new key).
// secrets.Rotation.Reseal is one.
type Resealer func(sealed, context string) (resealed string, changed bool, err error)

// ResealCount says what a rotation did to one place that holds secrets.
type ResealCount struct {
	// Place names the column or setting member, such as
	// "webhook_sources.secret_encrypted".
	Place string
	// Resealed counts the values moved to the new key.
	Resealed int
	// Current counts the values already sealed under the new key.
	Current int
}

// ResealError names the record whose secret could not be re-sealed; when it
// is returned, nothing was written.
type ResealError struct {
	Record string
	Err    error
}

func (e *ResealError) Error() string { return fmt.Sprintf("secret in %s: %v", e.Record, e.Err) }

func (e *ResealError) Unwrap() error { return e.Err }

// errDryRun rolls a dry-run transaction back after it did all its work.
var errDryRun = errors.New("dry run")

// ResealSecrets re-seals every registered secret with reseal in one
// transaction: either every value is moved (or found already moved) or,
// on the first failure, nothing is written and a *ResealError names the
// record. With dryRun the same work is done and then rolled back, so the
// old key can be checked before anything changes. Concurrent writers to the
// tables involved wait until the transaction ends.
func (s *Store) ResealSecrets(ctx context.Context, reseal Resealer, dryRun bool) ([]ResealCount, error) {
	var counts []ResealCount
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := s.lockSealedTables(tx); err != nil {
			return err
		}
		for _, place := range sealedSecrets {
			c, err := place.reseal(tx, reseal)
			if err != nil {
				return err
			}
			counts = append(counts, c)
		}
		if dryRun {
			return errDryRun
		}
		return s.inTx(tx).RecordAudit(ctx, resealAudit(counts))
	})
	if errors.Is(err, errDryRun) {
		err = nil
	}
	var rerr *ResealError
	if err != nil && !errors.As(err, &rerr) {
		err = fmt.Errorf("reseal secrets: %w", translate(err))
	}
	return counts, err
}

// lockSealedTables keeps other writers (a running server still holding the
// old key) from adding or changing a secret between the read and the
// commit. SQLite needs nothing: its write transactions take the database
// lock when they begin.
func (s *Store) lockSealedTables(tx *gorm.DB) error {
	if s.dialect != DialectPostgres {
		return nil
	}
	seen := map[string]bool{}
	var tables []string
	for _, place := range sealedSecrets {
		if t := place.table(); !seen[t] {
			seen[t] = true
			tables = append(tables, t)
		}
	}
	return tx.Exec("LOCK TABLE " + strings.Join(tables, ", ") + " IN EXCLUSIVE MODE").Error
}

// resealAudit records a rotation without naming any secret.
func resealAudit(counts []ResealCount) *AuditEvent {
	details := map[string]any{}
	for _, c := range counts {
		details[c.Place] = map[string]any{"resealed": c.Resealed, "current": c.Current}
	}
	return &AuditEvent{
		Actor: "vigil secrets rotate", AuthMethod: "cli", Action: "secrets.rotate",
		TargetType: "secrets", Outcome: OutcomeSuccess, Details: NewJSON(details),
	}
}

// sealedSecret is one place that holds sealed values.
type sealedSecret interface {
	table() string
	reseal(tx *gorm.DB, reseal Resealer) (ResealCount, error)
}

// sealedColumn is a text column of sealed values, one per row, an empty
// string meaning no secret.
type sealedColumn struct {
	tableName, key, column, context string
	// contextByKey seals each row under context + its key (a channel's
	// secrets are bound to that channel).
	contextByKey bool
}

func (c sealedColumn) table() string { return c.tableName }

func (c sealedColumn) reseal(tx *gorm.DB, reseal Resealer) (ResealCount, error) {
	count := ResealCount{Place: c.tableName + "." + c.column}
	var rows []struct{ ID, Sealed string }
	err := tx.Table(c.tableName).
		Select(c.key + " AS id, " + c.column + " AS sealed").
		Where(c.column + " <> ''").Order(c.key).
		Scan(&rows).Error
	if err != nil {
		return count, fmt.Errorf("read %s: %w", count.Place, err)
	}
	for _, r := range rows {
		record := fmt.Sprintf("%s %s=%q (%s)", c.tableName, c.key, r.ID, c.column)
		context := c.context
		if c.contextByKey {
			context += r.ID
		}
		out, changed, err := reseal(r.Sealed, context)
		if err != nil {
			return count, &ResealError{Record: record, Err: err}
		}
		if !changed {
			count.Current++
			continue
		}
		res := tx.Table(c.tableName).
			Where(c.key+" = ? AND "+c.column+" = ?", r.ID, r.Sealed).
			UpdateColumn(c.column, out)
		if res.Error != nil {
			return count, fmt.Errorf("write %s: %w", record, res.Error)
		}
		if res.RowsAffected != 1 {
			return count, &ResealError{Record: record, Err: errors.New("changed while it was being re-sealed")}
		}
		count.Resealed++
	}
	return count, nil
}

// sealedSettingMember is a string member of a settings document, reached
// through path (nested objects), holding a sealed value.
type sealedSettingMember struct {
	setting string
	path    []string
	context string
}

func (m sealedSettingMember) table() string { return "settings" }

func (m sealedSettingMember) reseal(tx *gorm.DB, reseal Resealer) (ResealCount, error) {
	count := ResealCount{Place: "settings." + m.setting + "." + strings.Join(m.path, ".")}
	var st Setting
	if err := tx.Where(keyIs(m.setting)).Take(&st).Error; err != nil {
		if errors.Is(translate(err), ErrNotFound) {
			return count, nil
		}
		return count, fmt.Errorf("read setting %s: %w", m.setting, err)
	}
	parent, ok := walk(st.Value.V, m.path[:len(m.path)-1])
	leaf := m.path[len(m.path)-1]
	sealed, _ := parent[leaf].(string)
	if !ok || sealed == "" {
		return count, nil
	}
	record := fmt.Sprintf("setting %q (%s)", m.setting, strings.Join(m.path, "."))
	out, changed, err := reseal(sealed, m.context)
	if err != nil {
		return count, &ResealError{Record: record, Err: err}
	}
	if !changed {
		count.Current++
		return count, nil
	}
	parent[leaf] = out
	// UpdateColumn leaves updated_at and updated_by alone: the setting
	// means what it meant before, only its encryption changed.
	err = tx.Model(&Setting{}).Where(keyIs(m.setting)).UpdateColumn("value", st.Value).Error
	if err != nil {
		return count, fmt.Errorf("write %s: %w", record, err)
	}
	count.Resealed++
	return count, nil
}

// walk follows path through nested JSON objects.
func walk(doc map[string]any, path []string) (map[string]any, bool) {
	for _, name := range path {
		next, ok := doc[name].(map[string]any)
		if !ok {
			return nil, false
		}
		doc = next
	}
	return doc, doc != nil
}
