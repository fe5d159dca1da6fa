package main

import (
	"github.com/spf13/cobra"

	"github.com/vigil-soc/vigil/app"
)

// serviceCommand runs Vigil in one mode until SIGINT or SIGTERM.
func serviceCommand(mode app.Mode, short string) *cobra.Command {
	return &cobra.Command{
		Use:   string(mode),
		Short: short,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig(cmd)
			if err != nil {
				return err
			}
			log, err := cfg.NewLogger()
			if err != nil {
				return err
			}
			return app.Run(cmd.Context(), cfg, mode, log)
		},
	}
}
