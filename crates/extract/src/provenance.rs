//! Where the indexed files come from: the repository's name, the commit, and the permalinks.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository a tree belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provenance {
    /// The folder file paths are relative to: the git top level, or the indexed folder.
    pub root: PathBuf,
    /// `owner/name` for a hosted repository, the folder name otherwise.
    pub repo: String,
    /// The commit whose files are analysed.
    pub sha: Option<String>,
    /// The host of the repository (`github.com`), when known.
    pub host: Option<String>,
}

impl Provenance {
    /// Reads the repository of `path` from git (origin remote and HEAD), overridden by
    /// `repo` and `commit` when given. A folder outside git is its own repository.
    pub fn discover(path: &Path, repo: Option<&str>, commit: Option<&str>) -> Provenance {
        let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        let dir = if path.is_dir() {
            path.clone()
        } else {
            path.parent().map(Path::to_path_buf).unwrap_or_default()
        };
        let git = |args: &[&str]| -> Option<String> {
            let out = Command::new("git")
                .arg("-C")
                .arg(&dir)
                .args(args)
                .output()
                .ok()?;
            let s = String::from_utf8(out.stdout).ok()?.trim().to_owned();
            (out.status.success() && !s.is_empty()).then_some(s)
        };
        let top = git(&["rev-parse", "--show-toplevel"]).map(PathBuf::from);
        let (root, remote, head) = match top {
            Some(top) => (
                top,
                git(&["config", "--get", "remote.origin.url"]),
                git(&["rev-parse", "HEAD"]),
            ),
            None => (dir.clone(), None, None),
        };
        let parsed = remote.as_deref().and_then(parse_remote);
        let (host, remote_repo) = match parsed {
            Some((h, r)) => (Some(h), Some(r)),
            None => (None, None),
        };
        let repo_name = repo.map(str::to_owned).or(remote_repo).unwrap_or_else(|| {
            root.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "repo".to_owned())
        });
        // A repository named on the command line as owner/name is taken to be on GitHub, as
        // the records of the dataset are.
        let host = host.or_else(|| {
            repo.filter(|r| r.contains('/'))
                .map(|_| "github.com".into())
        });
        Provenance {
            root,
            repo: repo_name,
            sha: commit.map(str::to_owned).or(head),
            host,
        }
    }

    /// The commit-pinned permalink of lines `start..=end` of `file`, in the host's own form.
    pub fn permalink(&self, file: &str, start: u32, end: u32) -> Option<String> {
        let sha = self.sha.as_deref()?;
        let host = self.host.as_deref()?;
        Some(match host {
            "gitlab.com" => format!(
                "https://gitlab.com/{}/-/blob/{sha}/{file}#L{start}-{end}",
                self.repo
            ),
            "bitbucket.org" => format!(
                "https://bitbucket.org/{}/src/{sha}/{file}#lines-{start}:{end}",
                self.repo
            ),
            host => format!(
                "https://{host}/{}/blob/{sha}/{file}#L{start}-L{end}",
                self.repo
            ),
        })
    }
}

/// `(host, owner/name)` of a remote URL: `git@github.com:o/r.git`, `https://github.com/o/r`,
/// `ssh://git@host:22/o/r.git`.
fn parse_remote(url: &str) -> Option<(String, String)> {
    let url = url.trim().trim_end_matches('/').trim_end_matches(".git");
    let rest = if let Some((_, r)) = url.split_once("://") {
        r
    } else {
        url
    };
    let rest = rest.rsplit_once('@').map(|(_, r)| r).unwrap_or(rest);
    let (host, path) = rest.split_once([':', '/'])?;
    if host.is_empty() {
        return None; // a local path
    }
    // `host:22/o/r` (a port) or `host:o/r` (scp form).
    let path = match path.split_once('/') {
        Some((port, p)) if port.chars().all(|c| c.is_ascii_digit()) => p,
        _ => path,
    };
    let path = path.trim_matches('/');
    if path.is_empty() || !path.contains('/') {
        return None;
    }
    Some((host.to_ascii_lowercase(), path.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remotes() {
        let gh = Some(("github.com".to_owned(), "o/r".to_owned()));
        assert_eq!(parse_remote("git@github.com:o/r.git"), gh);
        assert_eq!(parse_remote("https://github.com/o/r"), gh);
        assert_eq!(parse_remote("https://user@github.com/o/r.git/"), gh);
        assert_eq!(parse_remote("ssh://git@github.com:22/o/r.git"), gh);
        assert_eq!(parse_remote("/local/path"), None);
    }

    #[test]
    fn permalink_matches_the_seed_form() {
        let p = Provenance {
            root: PathBuf::new(),
            repo: "paperclipai/paperclip".into(),
            sha: Some("3f1d897a7c018d76563a21c6e39c3c9b03933622".into()),
            host: Some("github.com".into()),
        };
        assert_eq!(
            p.permalink("packages/x.ts", 101, 137).unwrap(),
            "https://github.com/paperclipai/paperclip/blob/3f1d897a7c018d76563a21c6e39c3c9b03933622/packages/x.ts#L101-L137"
        );
    }
}
