package store

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/google/uuid"
)

// KnowledgeArticle is a Markdown article of the knowledge base, such as a
// runbook for an incident type.
type KnowledgeArticle struct {
	ID            string `gorm:"primaryKey"`
	Title         string
	Content       string
	Tags          JSON[[]string]
	IncidentTypes JSON[[]string]
	// PackageName names the content package that installed the article,
	// "" for one written here.
	PackageName string
	CreatedBy   string
	UpdatedBy   string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// KnowledgeHit is one search result: the article, its rank (higher is
// better) and a snippet with the matched words between ** marks.
type KnowledgeHit struct {
	KnowledgeArticle
	Rank    float64
	Snippet string
}

// KnowledgeFilter narrows a knowledge listing.
type KnowledgeFilter struct {
	Tag          string
	IncidentType string
	Page         Page
}

func (a *KnowledgeArticle) fillDefaults() {
	if a.Tags.V == nil {
		a.Tags = NewJSON([]string{})
	}
	if a.IncidentTypes.V == nil {
		a.IncidentTypes = NewJSON([]string{})
	}
}

// CreateKnowledge inserts an article, giving it an id when it has none.
func (s *Store) CreateKnowledge(ctx context.Context, a *KnowledgeArticle) error {
	if a.ID == "" {
		a.ID = uuid.NewString()
	}
	now := Now()
	a.CreatedAt, a.UpdatedAt = now, now
	a.fillDefaults()
	if err := s.db.WithContext(ctx).Create(a).Error; err != nil {
		return fmt.Errorf("create knowledge article: %w", translate(err))
	}
	return nil
}

// UpdateKnowledge saves every field of an existing article.
func (s *Store) UpdateKnowledge(ctx context.Context, a *KnowledgeArticle) error {
	a.UpdatedAt = Now()
	a.fillDefaults()
	res := s.db.WithContext(ctx).Model(&KnowledgeArticle{}).Where("id = ?", a.ID).Select("*").
		Omit("created_at", "created_by").Updates(a)
	if res.Error != nil {
		return fmt.Errorf("update knowledge article: %w", translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// GetKnowledge reads one article.
func (s *Store) GetKnowledge(ctx context.Context, id string) (*KnowledgeArticle, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	var a KnowledgeArticle
	if err := s.db.WithContext(ctx).Take(&a, "id = ?", id).Error; err != nil {
		return nil, translate(err)
	}
	return &a, nil
}

// KnowledgeByTitle finds an article by title, case-insensitively.
func (s *Store) KnowledgeByTitle(ctx context.Context, title string) (*KnowledgeArticle, error) {
	var a KnowledgeArticle
	if err := s.db.WithContext(ctx).Take(&a, "lower(title) = lower(?)", title).Error; err != nil {
		return nil, translate(err)
	}
	return &a, nil
}

// DeleteKnowledge removes an article.
func (s *Store) DeleteKnowledge(ctx context.Context, id string) error {
	if err := checkID(id); err != nil {
		return err
	}
	return deleteWhere(ctx, s, &KnowledgeArticle{}, "id = ?", id)
}

// ListKnowledge returns one page of articles by title, and the total.
func (s *Store) ListKnowledge(ctx context.Context, f KnowledgeFilter) ([]KnowledgeArticle, int64, error) {
	q := s.db.WithContext(ctx).Model(&KnowledgeArticle{})
	if f.Tag != "" {
		q = q.Where("CAST(tags AS TEXT) LIKE ?", "%"+jsonQuoted(f.Tag)+"%")
	}
	if f.IncidentType != "" {
		q = q.Where("CAST(incident_types AS TEXT) LIKE ?", "%"+jsonQuoted(f.IncidentType)+"%")
	}
	var total int64
	if err := q.Session(&gormSession).Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("count knowledge articles: %w", err)
	}
	var out []KnowledgeArticle
	if err := f.Page.apply(q.Order("lower(title)").Order("id")).Find(&out).Error; err != nil {
		return nil, 0, fmt.Errorf("list knowledge articles: %w", err)
	}
	return out, total, nil
}

// maxSearchTerms bounds how many words of a search are used.
const maxSearchTerms = 16

// SearchKnowledge finds articles matching every word of text, best first
// (title matches weigh more than body matches), at most limit of them.
// PostgreSQL ranks with its text search, SQLite with FTS5's bm25.
func (s *Store) SearchKnowledge(ctx context.Context, text string, limit int) ([]KnowledgeHit, error) {
	terms := searchTerms(text)
	if len(terms) == 0 {
		return []KnowledgeHit{}, nil
	}
	type row struct {
		ID      string
		Rank    float64
		Snippet string
	}
	var rows []row
	var err error
	if s.dialect == DialectPostgres {
		err = s.db.WithContext(ctx).Raw(`SELECT id, ts_rank(search_vector, q) AS rank,
  ts_headline('english', content, q, 'StartSel=**, StopSel=**, MaxWords=30, MinWords=10, MaxFragments=2, FragmentDelimiter=" … "') AS snippet
FROM knowledge_articles, plainto_tsquery('english', ?) AS q
WHERE search_vector @@ q
ORDER BY rank DESC, lower(title), id LIMIT ?`, strings.Join(terms, " "), limit).Scan(&rows).Error
	} else {
		// Each term is quoted, so nothing the user types is FTS5 syntax.
		quoted := make([]string, len(terms))
		for i, t := range terms {
			quoted[i] = `"` + t + `"`
		}
		err = s.db.WithContext(ctx).Raw(`SELECT id, -bm25(knowledge_fts, 0.0, 10.0, 1.0) AS rank,
  snippet(knowledge_fts, 2, '**', '**', ' … ', 24) AS snippet
FROM knowledge_fts WHERE knowledge_fts MATCH ?
ORDER BY rank DESC, id LIMIT ?`, strings.Join(quoted, " "), limit).Scan(&rows).Error
	}
	if err != nil {
		return nil, fmt.Errorf("search knowledge: %w", err)
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	var arts []KnowledgeArticle
	if len(ids) > 0 {
		if err := s.db.WithContext(ctx).Where("id IN ?", ids).Find(&arts).Error; err != nil {
			return nil, fmt.Errorf("search knowledge: %w", err)
		}
	}
	byID := make(map[string]KnowledgeArticle, len(arts))
	for _, a := range arts {
		byID[a.ID] = a
	}
	out := make([]KnowledgeHit, 0, len(rows))
	for _, r := range rows {
		if a, ok := byID[r.ID]; ok { // deleted since the ranking read
			out = append(out, KnowledgeHit{KnowledgeArticle: a, Rank: r.Rank, Snippet: r.Snippet})
		}
	}
	return out, nil
}

// searchTerms splits text into lower-case words of letters and digits.
func searchTerms(text string) []string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	if len(words) > maxSearchTerms {
		words = words[:maxSearchTerms]
	}
	return words
}
