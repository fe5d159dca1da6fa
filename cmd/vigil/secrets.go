package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/secrets"
)

const secretsUsage = `Re-seals every stored secret (webhook source secrets, the LLM API key and
any other sealed credential) from the old key to the new VIGIL_SECRET_KEY,
in one database transaction. The old key is read from a file, from stdin,
or from VIGIL_OLD_SECRET_KEY, exactly one of them; never from an argument,
which any local user could read in the process list.

If any secret does not open with the old key, nothing is changed and the
record is named. A secret already sealed under the new key is left as it
is, so a second run with the same keys changes nothing. --dry-run does the
whole rotation and rolls it back.

Procedure: stop every vigil process (serve, api, worker); run this command
with the new key in VIGIL_SECRET_KEY; start vigil with the new key; then
destroy the old key.`

// oldKeyFileMax bounds what is read as a key: keys are short, and a wrong
// path should not make the command read a large file into memory.
const oldKeyFileMax = 4096

// secretsCommand groups the secret-key maintenance commands.
func secretsCommand() *cobra.Command {
	var oldKeyFile string
	var oldKeyStdin, dryRun bool
	rotate := &cobra.Command{
		Use:     "rotate (--old-key-file FILE | --old-key-stdin) [--dry-run]",
		Short:   "re-seal stored secrets under a new VIGIL_SECRET_KEY",
		Long:    secretsUsage,
		Example: "  VIGIL_SECRET_KEY=NEW vigil secrets rotate --old-key-file /run/secrets/old-key",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return rotateSecrets(cmd, oldKeyFile, oldKeyStdin, dryRun)
		},
	}
	f := rotate.Flags()
	f.StringVar(&oldKeyFile, "old-key-file", "", "read the old key from this file")
	f.BoolVar(&oldKeyStdin, "old-key-stdin", false, "read the old key from stdin")
	f.BoolVar(&dryRun, "dry-run", false, "check every secret opens with the old key, change nothing")
	return groupCommand("secrets", "maintain the key that seals stored secrets", rotate)
}

// rotateSecrets re-seals every stored secret from the old key to the new.
func rotateSecrets(cmd *cobra.Command, oldKeyFile string, oldKeyStdin, dryRun bool) error {
	cfg, err := loadConfig(cmd)
	if err != nil {
		return err
	}
	oldKey, err := readOldKey(oldKeyFile, oldKeyStdin, os.Stdin)
	if err != nil {
		return err
	}
	if strings.TrimSpace(cfg.SecretKey) == "" {
		return fmt.Errorf("%s must hold the new key", secrets.EnvVar)
	}
	newBox, err := app.NewSecrets(cfg)
	if err != nil {
		return err
	}
	oldBox, err := secrets.NewBox(oldKey)
	if err != nil {
		return fmt.Errorf("old key: %w", err)
	}
	rotation, err := secrets.NewRotation(oldBox, newBox)
	if err != nil {
		return err
	}
	cfg.AutoMigrate = true
	log, err := cfg.NewLogger()
	if err != nil {
		return err
	}
	st, err := app.OpenStore(cmd.Context(), cfg, log)
	if err != nil {
		return err
	}
	defer st.Close()
	counts, err := st.ResealSecrets(cmd.Context(), rotation.Reseal, dryRun)
	if err != nil {
		return fmt.Errorf("%w; nothing was changed", err)
	}
	total := 0
	for _, c := range counts {
		fmt.Printf("%-36s %d re-sealed, %d already under the new key\n", c.Place, c.Resealed, c.Current)
		total += c.Resealed
	}
	if dryRun {
		fmt.Printf("dry run: every secret opens; %d would be re-sealed, nothing was changed\n", total)
		return nil
	}
	fmt.Printf("re-sealed %d secret(s); start vigil with the new %s\n", total, secrets.EnvVar)
	return nil
}

// readOldKey takes the old key from exactly one of a file, stdin or
// VIGIL_OLD_SECRET_KEY.
func readOldKey(file string, fromStdin bool, stdin io.Reader) (string, error) {
	env := os.Getenv(secrets.OldEnvVar)
	given := 0
	for _, set := range []bool{file != "", fromStdin, env != ""} {
		if set {
			given++
		}
	}
	if given != 1 {
		return "", fmt.Errorf("give the old key exactly once: --old-key-file, --old-key-stdin or %s", secrets.OldEnvVar)
	}
	if env != "" {
		return env, nil
	}
	r := stdin
	if file != "" {
		f, err := os.Open(file)
		if err != nil {
			return "", fmt.Errorf("old key: %w", err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, oldKeyFileMax+1))
	if err != nil {
		return "", fmt.Errorf("read old key: %w", err)
	}
	if len(b) > oldKeyFileMax {
		return "", fmt.Errorf("old key: longer than %d bytes; is this the right file?", oldKeyFileMax)
	}
	key := strings.TrimSpace(string(b))
	if key == "" {
		return "", errors.New("old key: empty")
	}
	return key, nil
}
