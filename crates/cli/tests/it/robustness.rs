//! Re-indexing, interruption and bad input: nothing is lost and the run goes on.

use std::collections::HashMap;

use crate::util::{errata_cmd, Scratch};

fn by_message(records: &[serde_json::Value]) -> HashMap<String, serde_json::Value> {
    records
        .iter()
        .map(|r| (r["errorMessage"].as_str().unwrap().to_owned(), r.clone()))
        .collect()
}

fn summary(s: &Scratch, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    serde_json::from_str(&s.ok(&all)).unwrap()
}

fn numbered_file(sites: &[&str]) -> String {
    let mut src = String::from("export function run(x: number) {\n");
    for (i, m) in sites.iter().enumerate() {
        src.push_str(&format!("  if (x === {i}) throw new Error(\"{m}\");\n"));
        src.push_str(&"  x += 1;\n".repeat(20));
    }
    src.push_str("}\n");
    src
}

#[test]
fn reindexing_parses_only_what_changed_and_keeps_ids() {
    let s = Scratch::new();
    s.write("t/a.ts", numbered_file(&["alpha failed", "beta failed"]));
    s.write("t/b.ts", numbered_file(&["gamma failed"]));
    let first = summary(&s, &["index", "t"]);
    assert_eq!(first["filesParsed"], 2);
    let before = by_message(&s.records());

    // Nothing changed: nothing is parsed, every record and timestamp stays.
    let again = summary(&s, &["index", "t"]);
    assert_eq!(again["filesParsed"], 0);
    assert_eq!(again["filesRead"], 2);
    assert_eq!(by_message(&s.records()), before);

    // Lines inserted far above a site: same id, new line, unchanged content date.
    let mut shifted = String::from(&"// a comment line\n".repeat(30));
    shifted.push_str(&numbered_file(&["alpha failed", "beta failed"]));
    s.write("t/a.ts", &shifted);
    let third = summary(&s, &["index", "t"]);
    assert_eq!(third["filesParsed"], 1);
    let after = by_message(&s.records());
    let (b, a) = (&before["beta failed"], &after["beta failed"]);
    assert_eq!(a["id"], b["id"]);
    assert_eq!(
        a["lineNumber"].as_u64().unwrap(),
        b["lineNumber"].as_u64().unwrap() + 30
    );
    assert_eq!(a["contentChangedAt"], b["contentChangedAt"]);

    // A message changed: its old record leaves, the new one arrives; gamma is untouched.
    std::thread::sleep(std::time::Duration::from_millis(5));
    s.write("t/a.ts", numbered_file(&["alpha failed", "beta broke"]));
    s.ok(&["index", "t"]);
    let now = by_message(&s.records());
    assert!(!now.contains_key("beta failed"));
    assert!(now.contains_key("beta broke"));
    assert_eq!(now["gamma failed"], before["gamma failed"]);
    // alpha's window now differs (the lines above it changed back), so its content date moved.
    assert_eq!(now["alpha failed"]["id"], before["alpha failed"]["id"]);

    // A file deleted: its records leave the dataset.
    std::fs::remove_file(s.path().join("t/b.ts")).unwrap();
    s.ok(&["index", "t"]);
    assert!(!by_message(&s.records()).contains_key("gamma failed"));
}

/// An index explains every record again, so that an upgrade of errata leaves no record with
/// an older build's explanation, even where no file changed; nothing is parsed again.
#[test]
fn every_record_is_explained_by_this_build() {
    let s = Scratch::new();
    s.write("t/a.ts", numbered_file(&["alpha failed", "beta failed"]));
    s.write("t/b.ts", numbered_file(&["gamma failed"]));
    summary(&s, &["index", "t"]);
    let fresh = by_message(&s.records());
    // As an older build would have left them.
    let db = rusqlite::Connection::open(s.db()).unwrap();
    db.execute(
        "UPDATE records SET json = json_set(json, '$.documentation', 'stale')",
        [],
    )
    .unwrap();
    drop(db);
    let again = summary(&s, &["index", "t"]);
    assert_eq!(again["filesParsed"], 0);
    assert_eq!(by_message(&s.records()), fresh);
}

#[test]
fn the_same_message_twice_in_a_file_gives_two_records() {
    let s = Scratch::new();
    s.write("t/a.ts", numbered_file(&["same", "same"]));
    s.ok(&["index", "t"]);
    let records = s.records();
    assert_eq!(records.len(), 2);
    assert_ne!(records[0]["id"], records[1]["id"]);
}

#[test]
fn bad_files_are_reported_and_skipped_and_the_run_goes_on() {
    let s = Scratch::new();
    s.write("t/good.py", "def f():\n    raise ValueError('good one')\n");
    // Does not parse: the parts that do still give records.
    s.write(
        "t/broken.ts",
        "const x = ;\nfunction f() {\n  throw new Error(\"still found\");\n}\nlet = = =;\n",
    );
    // Invalid UTF-8.
    s.write("t/latin1.py", b"raise ValueError('caf\xe9')\n");
    // Binary.
    s.write("t/blob.js", b"\x00\x01\x02throw new Error('no')");
    // A 50 MB minified file.
    let mut big = String::with_capacity(50 << 20);
    while big.len() < 50 << 20 {
        big.push_str("var a=function(){throw new Error(\"minified\")};");
    }
    s.write("t/bundle.js", &big);
    drop(big);
    // A minified file under the size limit.
    s.write("t/small.min.js", "throw new Error(\"min\")");
    // Vendored and generated code.
    s.write("t/node_modules/dep/index.js", "throw new Error('vendored')");
    s.write(
        "t/gen.go",
        "// Code generated by stringer. DO NOT EDIT.\npackage x\nvar E = errors.New(\"generated\")\n",
    );
    // A symlink loop, a dangling symlink, a FIFO and an unreadable file.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::os::unix::fs::symlink("..", s.path().join("t/loop")).unwrap();
        std::os::unix::fs::symlink("missing.ts", s.path().join("t/dangling.ts")).unwrap();
        let fifo = s.path().join("t/pipe.ts");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        let locked = s.write("t/locked.py", "raise ValueError('locked')\n");
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    }

    let out = s.errata(&["index", "t"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("latin1.py: not UTF-8"), "{stderr}");
    assert!(stderr.contains("blob.js: binary"), "{stderr}");
    assert!(stderr.contains("bundle.js: too large"), "{stderr}");
    assert!(stderr.contains("small.min.js: minified"), "{stderr}");
    assert!(stderr.contains("gen.go: generated"), "{stderr}");
    assert!(stderr.contains("syntax errors"), "{stderr}");
    assert!(stderr.contains("pipe.ts: not a regular file"), "{stderr}");
    assert!(stderr.contains("1 vendored folders"), "{stderr}");

    let messages: Vec<String> = s
        .records()
        .iter()
        .map(|r| r["errorMessage"].as_str().unwrap().to_owned())
        .collect();
    assert!(messages.contains(&"good one".to_owned()));
    assert!(messages.contains(&"still found".to_owned()));
    for absent in ["no", "minified", "min", "vendored", "generated"] {
        assert!(
            !messages.contains(&absent.to_owned()),
            "{absent} in {messages:?}"
        );
    }
    // Root reads a mode-000 file anyway; anyone else gets it reported as unreadable.
    assert!(
        messages.contains(&"locked".to_owned()) || stderr.contains("locked.py: unreadable"),
        "{stderr}"
    );

    // --vendored reads vendored folders, even ignored, and still skips minified and
    // generated files.
    s.write("t/.gitignore", "node_modules/\n");
    let vendored = s.errata(&["index", "t", "--vendored"]);
    let stderr = String::from_utf8_lossy(&vendored.stderr);
    assert!(vendored.status.success(), "{stderr}");
    assert!(stderr.contains("small.min.js: minified"), "{stderr}");
    let messages: Vec<String> = s
        .records()
        .iter()
        .map(|r| r["errorMessage"].as_str().unwrap().to_owned())
        .collect();
    assert!(messages.contains(&"vendored".to_owned()), "{messages:?}");
    for absent in ["min", "generated", "minified"] {
        assert!(
            !messages.contains(&absent.to_owned()),
            "{absent} in {messages:?}"
        );
    }

    // --all reads vendored, minified and generated files too, but never binary ones.
    std::fs::remove_file(s.path().join("t/bundle.js")).unwrap();
    let all = s.errata(&["index", "t", "--all"]);
    assert!(all.status.success());
    let messages: Vec<String> = s
        .records()
        .iter()
        .map(|r| r["errorMessage"].as_str().unwrap().to_owned())
        .collect();
    for present in ["vendored", "generated", "min"] {
        assert!(
            messages.contains(&present.to_owned()),
            "{present} in {messages:?}"
        );
    }
    assert!(!messages.contains(&"no".to_owned()));
}

#[test]
fn a_killed_run_leaves_a_database_the_next_run_completes() {
    let s = Scratch::new();
    for d in 0..40 {
        for f in 0..50 {
            let sites: Vec<String> = (0..10).map(|i| format!("failure {d}-{f}-{i}")).collect();
            let sites: Vec<&str> = sites.iter().map(String::as_str).collect();
            s.write(&format!("t/d{d}/f{f}.ts"), numbered_file(&sites));
        }
    }
    // A clean run into another database gives the reference.
    let reference = Scratch::new();
    let out = errata_cmd()
        .args(["index", "--db"])
        .arg(reference.db())
        .arg(s.path().join("t"))
        .output()
        .unwrap();
    assert!(out.status.success());

    // Twenty moments, different at each run (the seed is printed to replay one): early ones
    // fall in the walk and the first batches, late ones in linking and explaining.
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64;
    eprintln!("kill moments seeded with {seed}");
    let mut x = seed | 1;
    let moments = (0..20).map(|_| {
        // xorshift: enough to spread the moments.
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        20 + x % 1200
    });
    for delay_ms in moments {
        let mut child = errata_cmd()
            .args(["index", "t", "--db"])
            .arg(s.db())
            .current_dir(s.path())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        // The database is whole and opens, whatever the moment of the kill.
        let conn = rusqlite::Connection::open(s.db()).unwrap();
        let check: String = conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(check, "ok", "killed after {delay_ms} ms (seed {seed})");
        drop(conn);
        let stats: serde_json::Value = serde_json::from_str(&s.ok(&["stats", "--json"])).unwrap();
        assert!(stats["records"].as_u64().is_some());
    }
    s.ok(&["index", "t"]);
    let strip = |mut v: Vec<serde_json::Value>| {
        for r in &mut v {
            let o = r.as_object_mut().unwrap();
            o.remove("analyzedAt");
            o.remove("contentChangedAt");
        }
        v.sort_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
        v
    };
    let got = strip(s.records());
    let ref_lines: Vec<serde_json::Value> = {
        let out = errata_cmd()
            .args(["export", "--db"])
            .arg(reference.db())
            .output()
            .unwrap();
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["record"].clone())
            .collect()
    };
    let want = strip(ref_lines);
    assert_eq!(got.len(), 20_000);
    assert_eq!(got, want);
}

/// Two writers at once: the second says it waits, waits its turn, then does its work, and the
/// store is the one a lone run makes.
#[test]
fn a_second_writer_waits_for_the_first() {
    use std::io::{BufRead, BufReader};

    let s = Scratch::new();
    s.write("t/a.ts", numbered_file(&["queue is full", "lease expired"]));
    s.ok(&["index", "t"]);
    // This test is the first writer: it holds the lock a run holds.
    let mut name = s.db().into_os_string();
    name.push(".lock");
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&name)
        .unwrap();
    lock.lock().unwrap();
    s.write("t/b.ts", numbered_file(&["disk quota exceeded"]));
    let mut child = errata_cmd()
        .args(["index", "t", "--db"])
        .arg(s.db())
        .current_dir(s.path())
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    assert!(
        first.contains("another errata run is writing to") && first.contains("waiting"),
        "{first}"
    );
    // Nothing was written while it waited.
    assert_eq!(s.records().len(), 2);
    lock.unlock().unwrap();
    assert!(child.wait().unwrap().success());
    let mut messages: Vec<String> = s
        .records()
        .iter()
        .map(|r| r["errorMessage"].as_str().unwrap().to_owned())
        .collect();
    messages.sort();
    assert_eq!(
        messages,
        ["disk quota exceeded", "lease expired", "queue is full"]
    );
}

#[test]
fn usage_errors_say_what_to_do() {
    let s = Scratch::new();
    let out = s.errata(&["index", "does-not-exist"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not exist"));
    let out = s.errata(&["index", ".", "--commit", "abc"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("40 hex digits"));
    for repo in ["bad name", "widgets", "acme/", "acme/wid gets"] {
        let out = s.errata(&["index", ".", "--repo", repo]);
        assert_eq!(out.status.code(), Some(2), "{repo}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("should be OWNER/NAME"),
            "{repo}"
        );
    }
    let out = s.errata(&["show", "nothing-like-this"]);
    assert_eq!(out.status.code(), Some(2), "no database yet");
    s.write("t/a.py", "raise ValueError('x')\n");
    s.ok(&["index", "t"]);
    let out = s.errata(&["show", "nothing-like-this"]);
    assert_eq!(out.status.code(), Some(1));
    let out = s.errata(&["list", "--lang", "cobol"]);
    assert_eq!(out.status.code(), Some(2));
    // A --db that is some other file: every command names it and says what to do.
    let notes = s.write("notes.txt", "not a database, just notes\n".repeat(100));
    let notes = notes.to_str().unwrap();
    for args in [
        &["--db", notes, "list"][..],
        &["--db", notes, "explain", "x failed"],
        &["--db", notes, "index", "t"],
    ] {
        let out = errata_cmd()
            .args(args)
            .current_dir(s.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("cannot open the database")
                && err.contains("notes.txt")
                && err.contains("--db"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn show_finds_a_record_by_slug_and_by_id() {
    let s = Scratch::new();
    s.write(
        "t/a.py",
        "def f():\n    raise ValueError(f'bad value {x}')\n",
    );
    s.ok(&["index", "t"]);
    let r = &s.records()[0];
    let text = s.ok(&["show", "bad-value-x"]);
    assert!(text.contains("bad value {x}"));
    assert!(text.contains(">2 |     raise ValueError"), "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&s.ok(&["show", r["id"].as_str().unwrap(), "--json"])).unwrap();
    assert_eq!(json["id"], r["id"]);
}

#[test]
fn gitignored_files_are_counted_in_the_summary() {
    let s = Scratch::new();
    s.write("t/.gitignore", "build/\n");
    s.write("t/src/a.py", "raise ValueError('kept')\n");
    s.write("t/build/out.py", "raise ValueError('ignored')\n");
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .args(args)
            .current_dir(s.path().join("t"))
            .output()
            .unwrap()
            .status
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"]);
    let out = s.errata(&["index", "t"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("1 gitignored"), "{stderr}");
    let messages: Vec<String> = s
        .records()
        .iter()
        .map(|r| r["errorMessage"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(messages, ["kept"]);
}

#[test]
fn a_tree_reached_through_a_symlink_keeps_relative_paths() {
    let s = Scratch::new();
    s.write("real/pkg/a.py", "raise ValueError('through a link')\n");
    #[cfg(unix)]
    std::os::unix::fs::symlink("real", s.path().join("link")).unwrap();
    s.ok(&["index", "link"]);
    let records = s.records();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["filePath"], "pkg/a.py");
}

/// A store the user may not write (another user's, or on read-only media) is read by the
/// reading commands as it is; a writing command refuses it with exit 2 and a message that says
/// what to do, and the store is unchanged. As root, whom permissions do not stop, errata is run
/// as `nobody`.
#[test]
fn a_read_only_store_is_read_and_writes_are_refused() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let s = Scratch::new();
    s.write(
        "src/lease.py",
        "def f(x):\n    raise ValueError(f\"bad lease {x}\")\n",
    );
    let db_dir = s.path().join("store");
    let db = db_dir.join("errata.db");
    let indexed = errata_cmd()
        .args(["index", "src", "--db"])
        .arg(&db)
        .current_dir(s.path())
        .output()
        .unwrap();
    assert!(indexed.status.success());
    let before = std::fs::read(&db).unwrap();
    // `nobody` must reach the binary and the store.
    let bin = s.path().join("errata");
    std::fs::copy(env!("CARGO_BIN_EXE_errata"), &bin).unwrap();
    let mode = |p: &std::path::Path, m: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap()
    };
    mode(s.path(), 0o755);
    mode(&bin, 0o755);
    for entry in std::fs::read_dir(&db_dir).unwrap() {
        mode(&entry.unwrap().path(), 0o444);
    }
    mode(&db_dir, 0o555);
    let run = |args: &[&str]| {
        let mut cmd = std::process::Command::new(&bin);
        cmd.args(args).arg("--db").arg(&db).current_dir(s.path());
        // The scratch folder is the running user's: root's when its owner is 0.
        if std::os::unix::fs::MetadataExt::uid(&std::fs::metadata(s.path()).unwrap()) == 0 {
            cmd.uid(65534).gid(65534);
        }
        cmd.output().unwrap()
    };

    let explained = run(&["explain", "bad lease 42"]);
    let stdout = String::from_utf8_lossy(&explained.stdout);
    assert!(
        explained.status.success() && stdout.contains("{x} = \"42\""),
        "{stdout}\n{}",
        String::from_utf8_lossy(&explained.stderr)
    );
    assert!(run(&["stats"]).status.success());

    let indexed = run(&["index", "src"]);
    let stderr = String::from_utf8_lossy(&indexed.stderr);
    assert_eq!(indexed.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("is read-only here"), "{stderr}");
    assert!(stderr.contains("--db COPY"), "{stderr}");
    mode(&db_dir, 0o755);
    assert_eq!(std::fs::read(&db).unwrap(), before, "the store changed");
}

/// A disk that fills up during `index` (a 3 MB tmpfs): exit 2 with a message that says what to
/// do, the store passes its integrity check and still answers, and once there is room the next
/// run completes. Mounting needs root; elsewhere the test says so and checks nothing.
#[test]
fn a_full_disk_stops_index_with_a_message_and_a_sound_store() {
    let s = Scratch::new();
    s.write(
        "small/lease.py",
        "def f(x):\n    raise ValueError(f\"bad lease {x}\")\n",
    );
    for f in 0..120 {
        let mut text = String::new();
        for i in 0..40 {
            text.push_str(&format!(
                "def f{i}(x):\n    if x > {i}:\n        raise ValueError(f\"value {{x}} of module {f} is over the limit {i} of this check\")\n"
            ));
        }
        s.write(&format!("big/m{f}.py"), text);
    }
    let disk = s.path().join("disk");
    std::fs::create_dir_all(&disk).unwrap();
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=3m", "tmpfs"])
        .arg(&disk)
        .output();
    if !mounted.is_ok_and(|o| o.status.success()) {
        eprintln!("a_full_disk: cannot mount a tmpfs here (root is needed); nothing checked");
        return;
    }
    struct Unmount<'a>(&'a std::path::Path);
    impl Drop for Unmount<'_> {
        fn drop(&mut self) {
            let _ = std::process::Command::new("umount").arg(self.0).status();
        }
    }
    let _unmount = Unmount(&disk);
    let db = disk.join("errata.db");
    let run = |args: &[&str]| {
        errata_cmd()
            .args(args)
            .arg("--db")
            .arg(&db)
            .current_dir(s.path())
            .output()
            .unwrap()
    };
    assert!(run(&["index", "small", "--repo", "acme/small"])
        .status
        .success());
    let full = run(&["index", "big", "--repo", "acme/big"]);
    let stderr = String::from_utf8_lossy(&full.stderr);
    assert_eq!(full.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the disk holding the database is full") && stderr.contains("--db FILE"),
        "{stderr}"
    );
    let conn = rusqlite::Connection::open(&db).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    drop(conn);
    let explained = run(&["explain", "bad lease 42"]);
    assert!(explained.status.success());
    // Room again: the run completes.
    let grown = std::process::Command::new("mount")
        .args(["-o", "remount,size=256m"])
        .arg(&disk)
        .status()
        .unwrap();
    assert!(grown.success());
    let again = run(&["index", "big", "--repo", "acme/big"]);
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let stats = String::from_utf8_lossy(&run(&["stats"]).stdout).into_owned();
    assert!(stats.starts_with("4801 records"), "{stats}");
}
