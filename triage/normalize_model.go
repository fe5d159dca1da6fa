package triage

// Fields is the normalized, vendor-neutral view of an alert that the rules
// judge. Names follow the spirit of the Elastic Common Schema; the expr tags
// are the names rule expressions use. Only what the payload states is
// filled: a false or empty value means "not reported", never "checked and
// absent", unless the field says otherwise.
type Fields struct {
	// Shape is the alert family detected from the payload itself:
	// "email", "endpoint", "identity" or "" when it could not be told.
	Shape string `expr:"shape" json:"shape"`
	// Format names the vendor format recognised, e.g. "entra_signin".
	Format   string           `expr:"format" json:"format"`
	Severity int              `expr:"severity" json:"severity"` // -1 unknown, 0 info .. 4 critical
	Alert    AlertFields      `expr:"alert" json:"alert"`
	Identity IdentityFields   `expr:"identity" json:"identity"`
	Email    EmailFields      `expr:"email" json:"email"`
	Endpoint EndpointFields   `expr:"endpoint" json:"endpoint"`
	Data     DataFields       `expr:"data" json:"data"`
	Network  NetworkFields    `expr:"network" json:"network"`
	Cloud    CloudFields      `expr:"cloud" json:"cloud"`
	MailRule MailRuleFields   `expr:"mail_rule" json:"mail_rule"`
	Consent  AppConsentFields `expr:"consent" json:"consent"`
}

// AlertFields hold what every alert may carry, whatever its family.
type AlertFields struct {
	Title    string `expr:"title" json:"title,omitempty"`
	Category string `expr:"category" json:"category,omitempty"` // lowercased vendor category
	// VendorVerdict is the product's own conclusion, folded to malicious,
	// suspicious, benign or false_positive ("" when not stated).
	VendorVerdict string `expr:"vendor_verdict" json:"vendor_verdict,omitempty"`
	// VendorVerdictSource is "analysed" when the verdict came from an
	// analyst's resolution, a triage classification or a sandbox
	// detonation, "engine" when only the detection stated it, "" with no
	// verdict.
	VendorVerdictSource string `expr:"vendor_verdict_source" json:"vendor_verdict_source,omitempty"`
	// Action is what the product already did: blocked, quarantined,
	// remediated, allowed, delivered or "".
	Action string `expr:"action" json:"action,omitempty"`
	// Text is the lowercased title, category and description, for
	// keyword rules.
	Text string `expr:"text" json:"-"`
	// SecurityTesting is set when the vendor or payload says the activity
	// was an authorised test (red team, simulation, EICAR).
	SecurityTesting bool `expr:"security_testing" json:"security_testing,omitempty"`
	// ExerciseAsset quotes what designates the host or account for an
	// authorised security exercise (a red-team device group, a
	// breach-and-attack simulation's signer), "" when nothing does.
	ExerciseAsset string `expr:"exercise_asset" json:"exercise_asset,omitempty"`
	// FederationChange is the event that changed how the tenant
	// authenticates: a domain federated, an identity provider added, a
	// partner tenant's MFA trusted (see federationChange); "" for none.
	FederationChange string `expr:"federation_change" json:"federation_change,omitempty"`
	// FederationWithGrant is set when the same payload also hands out an
	// administrator role or creates an account: the intruder making
	// themselves the admin who then changes the trust.
	FederationWithGrant bool `expr:"federation_with_grant" json:"federation_with_grant,omitempty"`
	// DirectoryAdminGroupAdd names the directory-wide administrators group
	// (Domain, Enterprise or Schema Admins) a Windows event records an
	// account added to, or "" (see directoryAdminGroupAdd).
	DirectoryAdminGroupAdd string `expr:"directory_admin_group_add" json:"directory_admin_group_add,omitempty"`
	// MFAWeakened says what an administrative change did to weaken
	// multi-factor authentication (accounts excluded from a conditional
	// access policy, a factor set to bypass), or "" (see mfaWeakened).
	MFAWeakened string `expr:"mfa_weakened" json:"mfa_weakened,omitempty"`
	// VaultBypass gives the last checkout and password change of a
	// vault-managed account used without a checkout since that change, or
	// "" (see vaultBypass).
	VaultBypass string `expr:"vault_bypass" json:"vault_bypass,omitempty"`
	// VaultRotationFailed is set when the payload says the vault's last
	// password rotation failed (see vaultRotationFailed).
	VaultRotationFailed bool `expr:"vault_rotation_failed" json:"vault_rotation_failed,omitempty"`
	// Decoy names the deception the alert reports touched (a honey user,
	// a honeytoken account, a canary token): bait no one has a reason to
	// use, so any use is someone looking for credentials.
	Decoy string `expr:"decoy" json:"decoy,omitempty"`
	// ChangeReference is the change-management record the payload names
	// (CHG0041187, "change request 88120"), or "".
	ChangeReference string `expr:"change_reference" json:"change_reference,omitempty"`
	// DirectorySync is set when a replication alert is Entra Connect's own
	// password-hash sync: its connector account on its server, krbtgt not
	// asked for (see directorySyncReplication).
	DirectorySync bool `expr:"directory_sync" json:"directory_sync,omitempty"`
	// ShadowCredentials names the account that added a key credential to
	// a directory object's msDS-KeyCredentialLink when it is neither a
	// machine account nor Entra Connect's connector (see
	// shadowCredentialWrite), or "".
	ShadowCredentials string `expr:"shadow_credentials" json:"shadow_credentials,omitempty"`
	// TestFile is set when the payload names the anti-virus test file
	// (EICAR) by one of its published hashes.
	TestFile bool `expr:"test_file" json:"test_file,omitempty"`
	// UnusableSecret is set when an exposed credential opens nothing: a
	// provider's documentation placeholder (AKIAIOSFODNN7EXAMPLE), or one
	// the secret scanner's own validity check found invalid or inactive.
	UnusableSecret bool `expr:"unusable_secret" json:"unusable_secret,omitempty"`
	// ScannerSource is set when the source asset is the organisation's
	// vulnerability scanner (asset category or scanner user agent).
	ScannerSource bool `expr:"scanner_source" json:"scanner_source,omitempty"`
	// IntelMatch is the indicator a SIEM's threat-intelligence correlation
	// matched ("" when none); IntelConfidence is the feed's confidence
	// (0-100, -1 when not stated).
	IntelMatch      string `expr:"intel_match" json:"intel_match,omitempty"`
	IntelConfidence int    `expr:"intel_confidence" json:"intel_confidence"`
	// CorrelatedUserAction is set when a correlated event shows the user
	// started the activity (a reset they requested, their own enrolment).
	CorrelatedUserAction bool     `expr:"correlated_user_action" json:"correlated_user_action,omitempty"`
	Techniques           []string `expr:"techniques" json:"techniques,omitempty"`
}

// IdentityFields describe a sign-in and its context.
type IdentityFields struct {
	User          string  `expr:"user" json:"user,omitempty"`
	SourceIP      string  `expr:"source_ip" json:"source_ip,omitempty"`
	Country       string  `expr:"country" json:"country,omitempty"`
	City          string  `expr:"city" json:"city,omitempty"`
	HasGeo        bool    `expr:"has_geo" json:"has_geo,omitempty"`
	Lat           float64 `expr:"lat" json:"lat,omitempty"`
	Lon           float64 `expr:"lon" json:"lon,omitempty"`
	ASN           string  `expr:"asn" json:"asn,omitempty"`
	ISP           string  `expr:"isp" json:"isp,omitempty"`
	Hosting       bool    `expr:"hosting" json:"hosting,omitempty"`
	Anonymizer    bool    `expr:"anonymizer" json:"anonymizer,omitempty"` // VPN, proxy or Tor
	Tor           bool    `expr:"tor" json:"tor,omitempty"`
	DeviceID      string  `expr:"device_id" json:"device_id,omitempty"`
	DeviceKnown   bool    `expr:"device_known" json:"device_known,omitempty"`
	DeviceManaged bool    `expr:"device_managed" json:"device_managed,omitempty"`
	DeviceNew     bool    `expr:"device_new" json:"device_new,omitempty"`
	ClientApp     string  `expr:"client_app" json:"client_app,omitempty"`
	// LegacyAuth is set for protocols that cannot do MFA (IMAP, POP,
	// SMTP AUTH, ActiveSync basic, "other clients").
	LegacyAuth bool `expr:"legacy_auth" json:"legacy_auth,omitempty"`
	// MFA is passed, failed, denied, fraud, not_required or "".
	MFA          string `expr:"mfa" json:"mfa,omitempty"`
	SingleFactor bool   `expr:"single_factor" json:"single_factor,omitempty"`
	PushCount    int    `expr:"push_count" json:"push_count,omitempty"`
	PushDenied   int    `expr:"push_denied" json:"push_denied,omitempty"`
	Result       string `expr:"result" json:"result,omitempty"` // success, failure or ""
	// PasswordAccepted is set when a failed sign-in got past the password
	// and stopped at MFA or an access policy (see passwordAccepted).
	PasswordAccepted bool `expr:"password_accepted" json:"password_accepted,omitempty"`
	FailedAttempts   int  `expr:"failed_attempts" json:"failed_attempts,omitempty"`
	TargetedUsers    int  `expr:"targeted_users" json:"targeted_users,omitempty"`
	// ReportedNearby is set when the owner disowned activity that the
	// provider places in the owner's own country (Okta's report of a
	// new-device sign-in from the user's city): a second device or a
	// relative's computer is as likely as an intruder.
	ReportedNearby bool `expr:"reported_nearby" json:"reported_nearby,omitempty"`
	// SprayedPassword is set when the provider's own risk detection says
	// the account's password was found by a password spray (Entra's
	// passwordSpray detection, raised only when a sprayed password was
	// correct), as opposed to a SIEM rule counting failures.
	SprayedPassword bool `expr:"sprayed_password" json:"sprayed_password,omitempty"`
	// SprayReported is set when the provider's own detection says the
	// source was spraying passwords or stuffing credentials across many
	// accounts (Okta ThreatInsight's "Password Spray", Auth0's limit_mu
	// block), even when it gave no count of the accounts.
	SprayReported bool `expr:"spray_reported" json:"spray_reported,omitempty"`
	// DeviceRegistration is set when the sign-in's resource is Entra's
	// Device Registration Service: a token to join a device to the
	// directory, which then earns a primary refresh token.
	DeviceRegistration bool    `expr:"device_registration" json:"device_registration,omitempty"`
	RiskLevel          string  `expr:"risk_level" json:"risk_level,omitempty"` // none, low, medium, high
	PrevCountry        string  `expr:"prev_country" json:"prev_country,omitempty"`
	TravelKm           float64 `expr:"travel_km" json:"travel_km,omitempty"`
	TravelKmh          float64 `expr:"travel_kmh" json:"travel_kmh,omitempty"`
	NewCountry         bool    `expr:"new_country" json:"new_country,omitempty"`
	UsualLocation      bool    `expr:"usual_location" json:"usual_location,omitempty"`
	KnownNetwork       bool    `expr:"known_network" json:"known_network,omitempty"` // corporate or previously seen IP
	// CorporateEgress is set when the sign-in came through the
	// organisation's own gateway or a named location (KnownNetwork too).
	CorporateEgress bool `expr:"corporate_egress" json:"corporate_egress,omitempty"`
	// ImpossibleTravel is set when the provider flags travel that cannot
	// be, or the previous sign-in's place and time show it.
	ImpossibleTravel bool `expr:"impossible_travel" json:"impossible_travel,omitempty"`
	ExpectedTravel   bool `expr:"expected_travel" json:"expected_travel,omitempty"`
	SelfService      bool `expr:"self_service" json:"self_service,omitempty"`
	Admin            bool `expr:"admin" json:"admin,omitempty"`
	// EmergencyAccess is set for a break-glass account, kept for outages
	// and used by no one in the ordinary course (see emergencyAccount).
	EmergencyAccess bool `expr:"emergency_access" json:"emergency_access,omitempty"`
	// ServiceAccount is set for non-human accounts: service and
	// automation accounts by naming convention, machine accounts.
	ServiceAccount bool `expr:"service_account" json:"service_account,omitempty"`
	// PasswordChanged is set when the payload records a change of the
	// account's own password (see passwordChanged).
	PasswordChanged bool `expr:"password_changed" json:"password_changed,omitempty"`
	// BulkDownload is set when the session went on to download or sync
	// files in bulk (a cloud app's mass-download detection).
	BulkDownload bool `expr:"bulk_download" json:"bulk_download,omitempty"`
	// ScriptedClient is set when the sign-in's user agent is an HTTP
	// library or command-line tool rather than a browser or an app.
	ScriptedClient bool `expr:"scripted_client" json:"scripted_client,omitempty"`
	// InternalSource is set when the source address is private or
	// loopback: the attempt came from inside the organisation's network.
	InternalSource bool `expr:"internal_source" json:"internal_source,omitempty"`
	// InstalledCaller is set when the process that authenticated runs
	// from an installed-program folder (Windows logon events name it).
	InstalledCaller bool `expr:"installed_caller" json:"installed_caller,omitempty"`
	// PhishResistant is set for authenticators that cannot be relayed
	// (security key, FIDO2, passkey, Windows Hello, signed nonce).
	PhishResistant bool `expr:"phish_resistant" json:"phish_resistant,omitempty"`
	// AccountTamper is set when the session went on to remove a second
	// factor, replace recovery details or forward mail away.
	AccountTamper bool `expr:"account_tamper" json:"account_tamper,omitempty"`
	// Workload is set for a sign-in by an application (a service
	// principal, managed or workload identity) rather than a person;
	// WorkloadSecret when it used a client secret; WorkloadCountries is
	// how many countries the payload's workload sign-ins came from.
	Workload          bool `expr:"workload" json:"workload,omitempty"`
	WorkloadSecret    bool `expr:"workload_secret" json:"workload_secret,omitempty"`
	WorkloadCountries int  `expr:"workload_countries" json:"workload_countries,omitempty"`
	// WorkloadNewCredential is set when the workload signed in with a
	// credential (secret, certificate, key) the payload says was added
	// recently: the persistence step of taking over an application.
	WorkloadNewCredential bool `expr:"workload_new_credential" json:"workload_new_credential,omitempty"`
	// LeakedCredentials is set when the provider found the user's
	// password in a breach or leak (Entra leakedCredentials, Google's
	// password-leak account warning, Okta breached credentials).
	LeakedCredentials bool `expr:"leaked_credentials" json:"leaked_credentials,omitempty"`
	// ApproverElsewhere is set when the second factor was approved from a
	// different country than the sign-in it unlocked; ApproverNearby when
	// both were in the same country.
	ApproverElsewhere bool `expr:"approver_elsewhere" json:"approver_elsewhere,omitempty"`
	ApproverNearby    bool `expr:"approver_nearby" json:"approver_nearby,omitempty"`
	// BypassCode is set when a helpdesk-issued bypass code stood in for
	// the second factor.
	BypassCode bool `expr:"bypass_code" json:"bypass_code,omitempty"`
	// DeviceUnmanaged is set when the provider says the device is not
	// trusted or managed (an explicit "no", not a missing field).
	DeviceUnmanaged bool `expr:"device_unmanaged" json:"device_unmanaged,omitempty"`
	// RiskRemediated is set when the provider says the user cleared the
	// risk it raised (passed MFA, changed the password securely);
	// RiskDismissed when an administrator or the provider confirmed the
	// sign-in safe.
	RiskRemediated bool `expr:"risk_remediated" json:"risk_remediated,omitempty"`
	RiskDismissed  bool `expr:"risk_dismissed" json:"risk_dismissed,omitempty"`
	// UserReported is set when the account's owner reported the sign-in
	// or the activity as not theirs (Okta's suspicious-activity report,
	// Entra's user-reported risk).
	UserReported bool `expr:"user_reported" json:"user_reported,omitempty"`
	// PayoutChange is set when the session went on to change where money
	// goes: payroll payment elections, direct deposit, bank details.
	PayoutChange bool `expr:"payout_change" json:"payout_change,omitempty"`
	// TokenAnomaly is set when the provider found the session's token
	// unusual (anomalous token, token issuer or lifetime anomaly, replay):
	// a stolen token carries the device's claims with it.
	TokenAnomaly bool `expr:"token_anomaly" json:"token_anomaly,omitempty"`
	// PhishingProxy is set when the provider tied the session to an
	// attacker-in-the-middle phishing proxy (Entra attackerinTheMiddle):
	// a token anomaly whose cause is known.
	PhishingProxy bool `expr:"phishing_proxy" json:"phishing_proxy,omitempty"`
	// PrivacyRelay is set when the anonymous address is Apple's iCloud
	// Private Relay, which any iPhone or Mac user can switch on.
	PrivacyRelay bool `expr:"privacy_relay" json:"privacy_relay,omitempty"`
	// RecoveredBefore is set when the payload shows the account's password
	// recovered or reset around the sign-in.
	RecoveredBefore bool `expr:"recovered_before" json:"recovered_before,omitempty"`
	// RefusedElsewhere is set when, before this sign-in succeeded, the
	// user refused a second-factor prompt for a sign-in from another
	// address: the password was right there, on someone's device.
	RefusedElsewhere bool `expr:"refused_elsewhere" json:"refused_elsewhere,omitempty"`
	// PrivilegeGrant is set when the session went on to hand out
	// administrative power: an administrator role or privileged group
	// granted, an API token created (Okta privilege grants, Entra "Add
	// member to role", Google role assignments).
	PrivilegeGrant bool `expr:"privilege_grant" json:"privilege_grant,omitempty"`
	// TopRoleGranted is set when the privilege handed out is one that
	// rules the whole tenant (Okta Super Administrator, Entra Global or
	// Privileged Role Administrator, AWS AdministratorAccess).
	TopRoleGranted bool `expr:"top_role_granted" json:"top_role_granted,omitempty"`
	// GrantApproved is set when the payload records the grant's approval:
	// an approved access request or access package, a PIM activation.
	GrantApproved bool `expr:"grant_approved" json:"grant_approved,omitempty"`
	// SessionFactorEnrolled is set when, in the events around the sign-in,
	// the same user enrolled a new second factor from the same address.
	SessionFactorEnrolled bool `expr:"session_factor_enrolled" json:"session_factor_enrolled,omitempty"`
	// DisabledAccount is set when the sign-in was tried on an account
	// that is disabled or deactivated (Entra error 50057, Windows
	// sub-status 0xC0000072, a detection naming it): someone still holds
	// the credentials of an account that should be unused.
	DisabledAccount bool `expr:"disabled_account" json:"disabled_account,omitempty"`
	// Event is the lowercased vendor event name (login_success,
	// user.session.start, ...).
	Event string `expr:"event" json:"event,omitempty"`
}

// EmailFields describe a message.
type EmailFields struct {
	Sender          string `expr:"sender" json:"sender,omitempty"`
	SenderDomain    string `expr:"sender_domain" json:"sender_domain,omitempty"`
	DisplayName     string `expr:"display_name" json:"display_name,omitempty"`
	ReplyToDomain   string `expr:"reply_to_domain" json:"reply_to_domain,omitempty"`
	ReplyToMismatch bool   `expr:"reply_to_mismatch" json:"reply_to_mismatch,omitempty"`
	// ReplyToLookalike is set when the reply-to domain imitates the
	// sender's own (haldanehaulage-accounts.co.uk for haldanehaulage.co.uk):
	// replies leave the sender for someone posing as them.
	ReplyToLookalike bool `expr:"reply_to_lookalike" json:"reply_to_lookalike,omitempty"`
	// ReplyToKnown is set when the payload shows the organisation has
	// corresponded with the reply-to domain before (see replyToKnown); a
	// differing reply-to is then no mismatch.
	ReplyToKnown bool `expr:"reply_to_known" json:"reply_to_known,omitempty"`
	Internal     bool `expr:"internal" json:"internal,omitempty"`
	// FreeMail is set for consumer mailbox providers, where anyone can
	// hold an address that authenticates perfectly.
	FreeMail bool `expr:"free_mail" json:"free_mail,omitempty"`
	// SimulationInfrastructure is set when the mail came through an
	// awareness platform's published sending addresses or envelope
	// domain, or the route the mail admins built for simulations: facts
	// the receiving gateway records, which the lure's sender cannot write.
	// It makes the alert a security test (AlertFields.SecurityTesting).
	SimulationInfrastructure bool `expr:"simulation_infrastructure" json:"simulation_infrastructure,omitempty"`
	// PaymentLure is set when the message or the alert about it asks for
	// gift cards, a wire or new bank details: the business e-mail
	// compromise request itself.
	PaymentLure   bool     `expr:"payment_lure" json:"payment_lure,omitempty"`
	SPF           string   `expr:"spf" json:"spf,omitempty"`
	DKIM          string   `expr:"dkim" json:"dkim,omitempty"`
	DMARC         string   `expr:"dmarc" json:"dmarc,omitempty"`
	AuthAligned   bool     `expr:"auth_aligned" json:"auth_aligned,omitempty"` // SPF or DKIM pass and DMARC pass
	AuthFailed    bool     `expr:"auth_failed" json:"auth_failed,omitempty"`
	SenderAgeDays int      `expr:"sender_age_days" json:"sender_age_days,omitempty"` // -1 unknown
	NewDomain     bool     `expr:"new_domain" json:"new_domain,omitempty"`
	Lookalike     bool     `expr:"lookalike" json:"lookalike,omitempty"`
	URLs          []string `expr:"urls" json:"urls,omitempty"`
	// DisplayNameBrand is the brand the display name claims ("Microsoft
	// 365 Security") when the sending domain is not the brand's, or "".
	DisplayNameBrand string `expr:"display_name_brand" json:"display_name_brand,omitempty"`
	// ConsentLink is the redirect host of a link to an identity
	// provider's consent page asking for mail or file permissions for an
	// application on no known brand's or the organisation's domain, or ""
	// (see consentPhishLink).
	ConsentLink string `expr:"consent_link" json:"consent_link,omitempty"`
	// ContinuedPastWarning is set when the recipient was shown the
	// gateway's warning page for the link and chose to go on to it.
	ContinuedPastWarning bool `expr:"continued_past_warning" json:"continued_past_warning,omitempty"`
	// EncodedAddressLink is the e-mail address a link carries
	// base64-encoded (a phishing kit pre-filling its sign-in page), or "".
	EncodedAddressLink string   `expr:"encoded_address_link" json:"encoded_address_link,omitempty"`
	LinkHosts          []string `expr:"link_hosts" json:"link_hosts,omitempty"`
	// ContentHostLinks counts links to customer-content hosts that are
	// not the organisation's own tenant.
	ContentHostLinks int `expr:"content_host_links" json:"content_host_links,omitempty"`
	OwnTenantLinks   int `expr:"own_tenant_links" json:"own_tenant_links,omitempty"`
	// OwnTenantSender is set when the sender is the organisation's own
	// tenant of a software service (contoso.coupahost.com,
	// contoso.zendesk.com) and the service authenticated the message.
	OwnTenantSender bool     `expr:"own_tenant_sender" json:"own_tenant_sender,omitempty"`
	Attachments     []string `expr:"attachments" json:"attachments,omitempty"`
	// ThreatType is the gateway's classification folded to phish,
	// malware, spam, bulk, impostor, clean or "".
	ThreatType string `expr:"threat_type" json:"threat_type,omitempty"`
	// ThreatConfidence is the gateway's own confidence in ThreatType:
	// high, normal, low or "" when not stated (Defender ConfidenceLevel,
	// Proofpoint scores).
	ThreatConfidence string `expr:"threat_confidence" json:"threat_confidence,omitempty"`
	// ImpersonatedInternal is set when the gateway found the sender's
	// display name to be one of the organisation's own people.
	ImpersonatedInternal bool `expr:"impersonated_internal" json:"impersonated_internal,omitempty"`
	// NameIsRecipient is set when the only person the gateway found the
	// sender imitating is the recipient: someone mailing themselves from a
	// personal mailbox, not an impostor of a colleague.
	NameIsRecipient bool `expr:"name_is_recipient" json:"name_is_recipient,omitempty"`
	// LinksOnSenderDomain is set when the message has links and every one
	// stays on the sender's own domain or brand (docusign.net sending
	// links to docusign.com).
	LinksOnSenderDomain bool   `expr:"links_on_sender_domain" json:"links_on_sender_domain,omitempty"`
	Delivery            string `expr:"delivery" json:"delivery,omitempty"` // delivered, blocked, junked, quarantined, replaced
	Clicked             bool   `expr:"clicked" json:"clicked,omitempty"`
	UserReported        bool   `expr:"user_reported" json:"user_reported,omitempty"`
	// ReportMailbox names the recipient or clicking account when it is
	// the organisation's phishing-report or abuse mailbox, where the
	// security team opens reported mail on purpose (see reportMailbox).
	ReportMailbox  string `expr:"report_mailbox" json:"report_mailbox,omitempty"`
	Bulk           bool   `expr:"bulk" json:"bulk,omitempty"`
	CredentialForm bool   `expr:"credential_form" json:"credential_form,omitempty"`
	// FirstContact is set when the gateway says the recipient or the
	// organisation has never had mail from this sender before.
	FirstContact bool `expr:"first_contact" json:"first_contact,omitempty"`
	// KnownCorrespondent is set when the product records earlier
	// correspondence with the sender (a known vendor, messages exchanged).
	KnownCorrespondent bool `expr:"known_correspondent" json:"known_correspondent,omitempty"`
	// UnscannableAttachment is set when an attachment is encrypted or
	// password-protected, so no scanner could look inside it.
	UnscannableAttachment bool `expr:"unscannable_attachment" json:"unscannable_attachment,omitempty"`
	// SenderCompromised is set when the gateway reports the sending
	// account itself as taken over (a real supplier's hijacked mailbox).
	SenderCompromised bool `expr:"sender_compromised" json:"sender_compromised,omitempty"`
	// QRCode is set when the message or an attachment carries a QR code,
	// a link the recipient opens on a phone outside the mail filter.
	QRCode bool `expr:"qr_code" json:"qr_code,omitempty"`
	// SenderBrand names the well-known brand that owns the sender domain
	// ("" when none).
	SenderBrand string `expr:"sender_brand" json:"sender_brand,omitempty"`
	// MalwareName is a malware family or detection name a sandbox or
	// anti-virus engine gave the message's attachment or link.
	MalwareName string `expr:"malware_name" json:"malware_name,omitempty"`
	// LaterVerdict is set when the gateway's verdict came after delivery:
	// a retrospective sandbox result, a reclassification, a purge.
	LaterVerdict bool `expr:"later_verdict" json:"later_verdict,omitempty"`
	// ClickFixLure is set when the message tells its reader to open the
	// Run dialog (Win+R) and paste something into it: a "verification"
	// that has the user run the attacker's command themselves.
	ClickFixLure bool `expr:"clickfix_lure" json:"clickfix_lure,omitempty"`
	// CallbackLure is set for an unexpected bill or renewal with a phone
	// number to call to cancel or dispute it (callback phishing).
	CallbackLure bool `expr:"callback_lure" json:"callback_lure,omitempty"`
	// DeviceCodeLure is set when the message sends its reader to a
	// device-code sign-in page (microsoft.com/devicelogin and the like):
	// the code the reader enters signs in the sender's device.
	DeviceCodeLure bool `expr:"device_code_lure" json:"device_code_lure,omitempty"`
	// Extortion is set for a demand for cryptocurrency under a threat.
	Extortion bool `expr:"extortion" json:"extortion,omitempty"`
	// PaymentRecon is set when the message only asks who handles
	// payments or invoices, or the gateway calls it reconnaissance.
	PaymentRecon bool `expr:"payment_recon" json:"payment_recon,omitempty"`
	// OwnDomainSpoof is set when the From claims the organisation's own
	// domain but that domain's authentication failed or the gateway
	// named it spoofing.
	OwnDomainSpoof bool `expr:"own_domain_spoof" json:"own_domain_spoof,omitempty"`
	// MailboxHidingRule is set when the alert reports an inbox rule that
	// hides mail from its owner; InternalPhishBurst when the mailbox sent
	// phishing to many colleagues.
	MailboxHidingRule  bool `expr:"mailbox_hiding_rule" json:"mailbox_hiding_rule,omitempty"`
	InternalPhishBurst bool `expr:"internal_phish_burst" json:"internal_phish_burst,omitempty"`
	// UnvouchedLinkHosts counts link hosts that are neither on the
	// sender's own domain, nor a well-known brand's, nor the
	// organisation's own tenant: places nobody in the exchange vouches for.
	UnvouchedLinkHosts int `expr:"unvouched_link_hosts" json:"unvouched_link_hosts,omitempty"`
	// Forwarding is set for an alert about automatic mail forwarding;
	// ForwardingOutside when a destination lies outside the organisation,
	// ForwardingOwnService when every destination is the organisation's
	// own domain or its own tenant of a service; ChangeRecord when the
	// alert cites a change ticket or request for it.
	Forwarding           bool `expr:"forwarding" json:"forwarding,omitempty"`
	ForwardingOutside    bool `expr:"forwarding_outside" json:"forwarding_outside,omitempty"`
	ForwardingOwnService bool `expr:"forwarding_own_service" json:"forwarding_own_service,omitempty"`
	ChangeRecord         bool `expr:"change_record" json:"change_record,omitempty"`
	// ForwardingConsumer is set when a destination is a consumer mailbox.
	ForwardingConsumer bool `expr:"forwarding_consumer" json:"forwarding_consumer,omitempty"`
	// SenderReputation is the gateway's reputation of the sending host
	// or domain folded to good, poor or "".
	SenderReputation string `expr:"sender_reputation" json:"sender_reputation,omitempty"`
}

// EndpointFields describe a process-level detection.
type EndpointFields struct {
	Host          string   `expr:"host" json:"host,omitempty"`
	User          string   `expr:"user" json:"user,omitempty"`
	UserAdmin     bool     `expr:"user_admin" json:"user_admin,omitempty"`
	Process       string   `expr:"process" json:"process,omitempty"` // lowercased file name
	Parent        string   `expr:"parent" json:"parent,omitempty"`
	CommandLine   string   `expr:"command_line" json:"command_line,omitempty"` // lowercased
	FilePath      string   `expr:"file_path" json:"file_path,omitempty"`
	Signer        string   `expr:"signer" json:"signer,omitempty"`
	Signed        bool     `expr:"signed" json:"signed,omitempty"`
	SignatureBad  bool     `expr:"signature_bad" json:"signature_bad,omitempty"`
	TrustedSigner bool     `expr:"trusted_signer" json:"trusted_signer,omitempty"`
	Hashes        []string `expr:"hashes" json:"hashes,omitempty"`
	// LOLBin is set when the process is a living-off-the-land binary.
	LOLBin        bool `expr:"lolbin" json:"lolbin,omitempty"`
	OfficeParent  bool `expr:"office_parent" json:"office_parent,omitempty"`
	BrowserParent bool `expr:"browser_parent" json:"browser_parent,omitempty"`
	AdminTool     bool `expr:"admin_tool" json:"admin_tool,omitempty"`
	Encoded       bool `expr:"encoded" json:"encoded,omitempty"`
	// ShadowDelete is set when a command deletes every shadow copy or a
	// backup catalog, or turns recovery off; deleting one named or the
	// oldest copy is how backup software rotates snapshots, and is not.
	ShadowDelete bool `expr:"shadow_delete" json:"shadow_delete,omitempty"`
	MassRename   bool `expr:"mass_rename" json:"mass_rename,omitempty"`
	// RansomNote is set when the payload names a ransom note: one it says
	// was left, or a how-to-decrypt or restore-my-files file.
	RansomNote     bool `expr:"ransom_note" json:"ransom_note,omitempty"`
	CredentialDump bool `expr:"credential_dump" json:"credential_dump,omitempty"`
	// EngineReadsLsass is the installed endpoint protection engine the
	// alert shows opening LSASS with nothing written out (see
	// lsassRead); CredentialDump is then not set.
	EngineReadsLsass string `expr:"engine_reads_lsass" json:"engine_reads_lsass,omitempty"`
	UserWritable     bool   `expr:"user_writable" json:"user_writable,omitempty"`
	Reputation       string `expr:"reputation" json:"reputation,omitempty"` // malicious, suspicious, clean, ""
	Prevalence       int    `expr:"prevalence" json:"prevalence,omitempty"` // machines seeing the file, -1 unknown
	ThreatClass      string `expr:"threat_class" json:"threat_class,omitempty"`
	VendorConfident  bool   `expr:"vendor_confident" json:"vendor_confident,omitempty"`
	// Context is who launched the process and through what.
	Context EndpointContext `expr:"context" json:"context"`
	// Behaviour is what the processes in the alert did.
	Behaviour EndpointBehaviour `expr:"behaviour" json:"behaviour"`
}
