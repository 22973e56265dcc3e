BEGIN TRANSACTION;
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('0009');
CREATE TABLE content_facts (
	"key" TEXT NOT NULL, 
	value TEXT NOT NULL, 
	PRIMARY KEY ("key")
);
CREATE TABLE decisions (
	id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, 
	time FLOAT NOT NULL, 
	reviewer TEXT NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	a INTEGER NOT NULL, 
	b INTEGER, 
	a_xxh128 VARCHAR(32) NOT NULL, 
	b_xxh128 VARCHAR(32) NOT NULL, 
	value VARCHAR(16) NOT NULL, 
	note TEXT NOT NULL
);
CREATE TABLE document_text (
	doc_id INTEGER NOT NULL, 
	data BLOB NOT NULL, 
	PRIMARY KEY (doc_id), 
	FOREIGN KEY(doc_id) REFERENCES documents (id) ON DELETE CASCADE
);
CREATE TABLE documents (
	id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, 
	file_id INTEGER NOT NULL, 
	root_id INTEGER NOT NULL, 
	relpath TEXT NOT NULL, 
	container TEXT, 
	size INTEGER NOT NULL, 
	mtime_ns INTEGER NOT NULL, 
	date FLOAT, 
	format VARCHAR(16) NOT NULL, 
	xxh128 VARCHAR(32) NOT NULL, 
	sha256 VARCHAR(64) NOT NULL, 
	text_length INTEGER NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	reason TEXT NOT NULL, 
	UNIQUE (root_id, relpath), 
	FOREIGN KEY(file_id) REFERENCES files (id) ON DELETE CASCADE, 
	FOREIGN KEY(root_id) REFERENCES roots (id) ON DELETE CASCADE
);
CREATE TABLE email_headers (
	doc_id INTEGER NOT NULL, 
	message_id TEXT NOT NULL, 
	in_reply_to TEXT NOT NULL, 
	refs TEXT NOT NULL, 
	subject TEXT NOT NULL, 
	sender TEXT NOT NULL, 
	date_text TEXT NOT NULL, 
	PRIMARY KEY (doc_id), 
	FOREIGN KEY(doc_id) REFERENCES documents (id) ON DELETE CASCADE
);
CREATE TABLE files (
	id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, 
	root_id INTEGER NOT NULL, 
	relpath TEXT NOT NULL, 
	size INTEGER NOT NULL, 
	mtime_ns INTEGER NOT NULL, 
	xxh128 VARCHAR(32), 
	UNIQUE (root_id, relpath), 
	FOREIGN KEY(root_id) REFERENCES roots (id) ON DELETE CASCADE
);
CREATE TABLE pair_sets (
	id INTEGER NOT NULL, 
	method VARCHAR(32) NOT NULL, 
	pairs_key VARCHAR(32) NOT NULL, 
	sketch_key VARCHAR(32) NOT NULL, 
	params TEXT NOT NULL, 
	floor FLOAT NOT NULL, 
	count INTEGER NOT NULL, 
	input_hash VARCHAR(64) NOT NULL, 
	created FLOAT NOT NULL, complete_from FLOAT, 
	PRIMARY KEY (id), 
	UNIQUE (method, pairs_key)
);
CREATE TABLE pairs (
	id INTEGER NOT NULL, 
	set_id INTEGER NOT NULL, 
	a INTEGER NOT NULL, 
	b INTEGER NOT NULL, 
	score FLOAT NOT NULL, 
	cont_ab FLOAT, 
	cont_ba FLOAT, 
	hamming FLOAT, estimate FLOAT, 
	PRIMARY KEY (id), 
	FOREIGN KEY(set_id) REFERENCES pair_sets (id) ON DELETE CASCADE
);
CREATE TABLE roots (
	id INTEGER NOT NULL, 
	path TEXT NOT NULL, 
	reference BOOLEAN NOT NULL, 
	position INTEGER NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (path)
);
CREATE TABLE scan_runs (
	id INTEGER NOT NULL, 
	started FLOAT NOT NULL, 
	finished FLOAT, 
	status VARCHAR(16) NOT NULL, 
	method VARCHAR(32) NOT NULL, 
	params TEXT NOT NULL, 
	pairs_key VARCHAR(32) NOT NULL, 
	floor FLOAT NOT NULL, 
	documents INTEGER NOT NULL, 
	new INTEGER NOT NULL, 
	changed INTEGER NOT NULL, 
	unchanged INTEGER NOT NULL, 
	removed INTEGER NOT NULL, 
	errors INTEGER NOT NULL, 
	pairs INTEGER NOT NULL, 
	message TEXT NOT NULL, 
	PRIMARY KEY (id)
);
CREATE TABLE settings (
	"key" TEXT NOT NULL, 
	value TEXT NOT NULL, 
	PRIMARY KEY ("key")
);
CREATE TABLE sketches (
	doc_id INTEGER NOT NULL, 
	method VARCHAR(32) NOT NULL, 
	sketch_key VARCHAR(32) NOT NULL, 
	data BLOB NOT NULL, 
	PRIMARY KEY (doc_id, method, sketch_key), 
	FOREIGN KEY(doc_id) REFERENCES documents (id) ON DELETE CASCADE
);
CREATE TABLE text_dictionaries (
	id INTEGER NOT NULL, 
	created FLOAT NOT NULL, 
	data BLOB NOT NULL, 
	PRIMARY KEY (id)
);
CREATE INDEX ix_documents_file_id ON documents (file_id);
CREATE INDEX ix_pairs_set_score ON pairs (set_id, score);
CREATE INDEX ix_documents_xxh128 ON documents (xxh128);
CREATE INDEX ix_decisions_kind_a_b ON decisions (kind, a, b);
CREATE TRIGGER facts_files_update AFTER UPDATE ON files FOR EACH ROW WHEN EXISTS (SELECT 1 FROM content_facts WHERE key = 'listing') BEGIN DELETE FROM content_facts WHERE key = 'listing'; END;
CREATE TRIGGER facts_files_delete AFTER DELETE ON files FOR EACH ROW WHEN EXISTS (SELECT 1 FROM content_facts WHERE key = 'listing') BEGIN DELETE FROM content_facts WHERE key = 'listing'; END;
CREATE TRIGGER facts_sketches_delete AFTER DELETE ON sketches FOR EACH ROW WHEN EXISTS (SELECT 1 FROM content_facts WHERE key <> 'listing') BEGIN DELETE FROM content_facts WHERE key <> 'listing'; END;
CREATE TRIGGER facts_documents_update AFTER UPDATE ON documents FOR EACH ROW WHEN EXISTS (SELECT 1 FROM content_facts) BEGIN DELETE FROM content_facts WHERE 1; END;
CREATE TRIGGER facts_documents_delete AFTER DELETE ON documents FOR EACH ROW WHEN EXISTS (SELECT 1 FROM content_facts) BEGIN DELETE FROM content_facts WHERE 1; END;
CREATE TRIGGER facts_roots_insert AFTER INSERT ON roots FOR EACH ROW WHEN EXISTS (SELECT 1 FROM content_facts) BEGIN DELETE FROM content_facts WHERE 1; END;
CREATE TRIGGER facts_roots_delete AFTER DELETE ON roots FOR EACH ROW WHEN EXISTS (SELECT 1 FROM content_facts) BEGIN DELETE FROM content_facts WHERE 1; END;
CREATE TRIGGER facts_roots_update AFTER UPDATE ON roots FOR EACH ROW WHEN (NEW.path IS NOT OLD.path OR NEW.reference IS NOT OLD.reference) AND EXISTS (SELECT 1 FROM content_facts) BEGIN DELETE FROM content_facts WHERE 1; END;
COMMIT;
