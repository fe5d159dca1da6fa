package store

// KeyCached reports whether key would be answered from the key cache.
func (s *Store) KeyCached(key string) bool {
	_, _, ok := s.keys.get(HashKey(key))
	return ok
}

// KeyCacheListening reports whether the store hears credential changes.
func (s *Store) KeyCacheListening() bool { return s.keys.isListening() }
