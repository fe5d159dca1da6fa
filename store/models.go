package store

import "time"

// Roles, lowest to highest.
const (
	RoleViewer  = "viewer"
	RoleAnalyst = "analyst"
	RoleSenior  = "senior"
	RoleManager = "manager"
	RoleAdmin   = "admin"
)

// Roles lists every role from lowest to highest.
var Roles = []string{RoleViewer, RoleAnalyst, RoleSenior, RoleManager, RoleAdmin}

// RoleRank orders roles; unknown roles rank below viewer.
func RoleRank(role string) int {
	for i, r := range Roles {
		if r == role {
			return i
		}
	}
	return -1
}

// User is a person or service account that holds API keys.
type User struct {
	ID           string     `gorm:"primaryKey" json:"id"`
	Email        string     `json:"email"`
	Username     string     `json:"username"`
	Role         string     `json:"role"`
	DisplayName  string     `json:"display_name"`
	PasswordHash string     `json:"-"`
	Enabled      bool       `json:"enabled"`
	LastLoginAt  *time.Time `json:"last_login_at"`
	CreatedAt    time.Time  `json:"created_at"`
	UpdatedAt    time.Time  `json:"updated_at"`
}

// APIKey is a bearer credential; only its SHA-256 hash is stored.
type APIKey struct {
	ID         string         `gorm:"primaryKey" json:"id"`
	UserID     string         `json:"user_id"`
	Name       string         `json:"name"`
	KeyPrefix  string         `json:"key_prefix"`
	KeyHash    string         `json:"-"`
	Scopes     JSON[[]string] `json:"scopes"`
	ExpiresAt  *time.Time     `json:"expires_at"`
	LastUsedAt *time.Time     `json:"last_used_at"`
	RevokedAt  *time.Time     `json:"revoked_at,omitempty"`
	CreatedAt  time.Time      `json:"created_at"`
	// Owner is filled only by authentication, which reads the key and its
	// user in one query.
	Owner *User `gorm:"foreignKey:UserID" json:"-"`
}

// Incident statuses.
const (
	StatusOpen     = "open"
	StatusTriaged  = "triaged"
	StatusResolved = "resolved"
)

// IncidentStatuses lists the valid incident statuses.
var IncidentStatuses = []string{StatusOpen, StatusTriaged, StatusResolved}

// Severities lists the valid severities, lowest to highest.
var Severities = []string{"low", "medium", "high", "critical"}

// SeverityRank orders severities so "sort=-severity" puts critical first;
// unknown severities rank 0.
func SeverityRank(sev string) int {
	for i, s := range Severities {
		if s == sev {
			return i + 1
		}
	}
	return 0
}

// Verdict is the outcome of triage as stored on an incident.
type Verdict struct {
	Classification string  `json:"classification"`
	Confidence     float64 `json:"confidence"`
	Category       string  `json:"category"`
	Reasoning      string  `json:"reasoning"`
}

// Incident is a security incident.
type Incident struct {
	ID                 string `gorm:"primaryKey"`
	IncidentNumber     string
	NumberYear         int
	NumberSeq          int64
	IncidentType       string
	Severity           string
	SeverityRank       int
	Status             string
	Source             string
	Description        string
	Assignee           string
	RawData            JSON[map[string]any]
	Verdict            JSON[*Verdict]
	RecommendedActions JSON[[]string]
	Resolution         string
	CreatedBy          string
	CreatedAt          time.Time
	UpdatedAt          time.Time
	TriagedAt          *time.Time
	// Title is a short summary; webhook alerts always carry one.
	Title string
	// ExternalSource and ExternalID name the upstream alert, for
	// deduplication; Occurrences counts how often it arrived.
	ExternalSource string
	ExternalID     string
	Occurrences    int
	LastSeenAt     *time.Time
	// IntakeID is the intake queue entry the incident was made from, so a
	// retried dispatch never creates it twice.
	IntakeID string
}

// Triage statuses.
const (
	TriageRunning   = "running"
	TriageCompleted = "completed"
	TriageFailed    = "failed"
)

// Triage records one run of the Triage workflow for an incident.
type Triage struct {
	ID                 string `gorm:"primaryKey"`
	IncidentID         string
	WorkflowID         string
	Status             string
	Verdict            JSON[*Verdict]
	RecommendedActions JSON[[]string]
	Indicators         JSON[map[string][]string]
	Analyzer           string
	Model              string
	FallbackReason     string
	Intel              JSON[[]map[string]any]
	Error              string
	RequestedBy        string
	DurationMS         int64 `gorm:"column:duration_ms"`
	StartedAt          time.Time
	CompletedAt        *time.Time
}
