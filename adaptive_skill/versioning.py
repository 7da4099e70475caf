"""Git versioning of a workspace: snapshots, immutable `evo-N` tags carrying metrics, rollback
as a new commit (history kept), file reads at any tag, diffs and a tag log.

A run's workspace is its own repository; the identity used for commits is set in that
repository's local config, never the user's global one.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import git

from adaptive_skill.errors import VersioningError

AUTHOR_NAME = "adaptive-skill"
AUTHOR_EMAIL = "adaptive-skill@localhost"
EVO_TAG = re.compile(r"^evo-(\d+)$")
SAFE_REF = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$")


@dataclass(frozen=True)
class TagInfo:
    name: str
    commit: str
    date: datetime
    summary: str
    metrics: dict[str, Any]


class WorkspaceRepo:
    def __init__(self, repo: git.Repo):
        self.repo = repo
        self.root = Path(repo.working_tree_dir)

    @classmethod
    def open(cls, root: Path) -> WorkspaceRepo:
        try:
            return cls(git.Repo(root))
        except (git.InvalidGitRepositoryError, git.NoSuchPathError):
            raise VersioningError(f"{root}: not a versioned workspace (no git repository)") from None
        except git.GitError as exc:  # a damaged repository
            raise VersioningError(f"{root}: unreadable git repository ({exc})") from None

    @classmethod
    def init(cls, root: Path, message: str = "seed workspace") -> WorkspaceRepo:
        """Make `root` a repository (if it is not one) and commit its current content."""
        repo = git.Repo.init(root)
        with repo.config_writer() as cfg:
            cfg.set_value("user", "name", AUTHOR_NAME)
            cfg.set_value("user", "email", AUTHOR_EMAIL)
            cfg.set_value("commit", "gpgsign", "false")
            cfg.set_value("tag", "gpgsign", "false")
        workspace = cls(repo)
        workspace.snapshot(message, allow_empty=not repo.head.is_valid())
        return workspace

    # -- writing ---------------------------------------------------------------------------

    def is_dirty(self) -> bool:
        return self.repo.is_dirty(untracked_files=True)

    def snapshot(self, message: str, allow_empty: bool = False) -> str:
        """Commit everything in the work tree; return HEAD's sha (unchanged if nothing changed)."""
        self.repo.git.add("-A")
        if self.repo.head.is_valid() and not self.repo.is_dirty(index=True, working_tree=False) \
                and not allow_empty:
            return self.head()
        args = ["-m", message, "--no-verify"]
        if allow_empty:
            args.append("--allow-empty")
        self.repo.git.commit(*args)
        return self.head()

    def tag(self, name: str, metrics: dict[str, Any] | None = None, summary: str = "",
            ref: str = "HEAD") -> TagInfo:
        """Create an annotated tag; an existing tag is an error, never overwritten."""
        self._check_ref_name(name)
        if name in {t.name for t in self.repo.tags}:
            raise VersioningError(f"tag {name} already exists at {self.repo.tags[name].commit.hexsha[:10]}; "
                                  "tags are immutable")
        body = json.dumps(metrics or {}, sort_keys=True, default=str)
        message = f"{summary or name}\n\n{body}\n"
        self.repo.create_tag(name, ref=self.resolve(ref), message=message)
        return self.tag_info(name)

    def next_evo_tag(self) -> str:
        numbers = [int(m.group(1)) for t in self.repo.tags if (m := EVO_TAG.match(t.name))]
        return f"evo-{max(numbers, default=0) + 1}"

    def rollback(self, ref: str, message: str | None = None) -> str:
        """Restore the tree of `ref` as a NEW commit on top of HEAD; the undone commits stay in
        history. Uncommitted changes are discarded (snapshot first to keep them)."""
        target = self.resolve(ref)
        self.repo.git.reset("--hard", "HEAD")
        self.repo.git.clean("-fdx")
        # read-tree -u --reset makes index and work tree equal to the target tree, removing files
        # the target does not have.
        self.repo.git.read_tree("-u", "--reset", target)
        msg = message or f"rollback to {ref} ({target[:10]})"
        self.repo.git.commit("-m", msg, "--allow-empty", "--no-verify")
        return self.head()

    def restore_paths(self, ref: str, paths: list[str], message: str) -> str:
        """A NEW commit on top of HEAD in which each of `paths` (relative to the work tree) is as `ref`
        has it: restored where `ref` has it, removed where it does not; everything else as HEAD has
        it. The gate per skill drops a skill this way. Returns the new HEAD."""
        target = self.resolve(ref)
        self.repo.git.reset("--hard", "HEAD")
        for path in paths:
            if path.startswith(("/", "-")) or ".." in Path(path).parts:
                raise VersioningError(f"{path!r} is not a path inside the workspace")
            self.repo.git.rm("-r", "-q", "--ignore-unmatch", "--", path)
            if self.repo.git.ls_tree(target, "--", path):
                self.repo.git.checkout(target, "--", path)
        self.repo.git.commit("-m", message, "--allow-empty", "--no-verify")
        return self.head()

    def reset_to(self, ref: str, message: str) -> bool:
        """Work tree = the tree of `ref`, history untouched: uncommitted edits are dropped, and when
        HEAD's tree still differs (a commit nobody recorded) a rollback commit restores `ref`'s.
        True when such a rollback commit was made."""
        self.repo.git.reset("--hard", "HEAD")
        self.repo.git.clean("-fdx")
        if self.tree_of("HEAD") == self.tree_of(ref):
            return False
        self.rollback(ref, message)
        return True

    # -- reading ---------------------------------------------------------------------------

    def head(self) -> str:
        return self.repo.head.commit.hexsha

    def resolve(self, ref: str) -> str:
        """The commit sha of a tag, branch or sha; a clear error if unknown."""
        self._check_ref_name(ref, allow_head=True)
        try:
            return self.repo.rev_parse(f"{ref}^{{commit}}").hexsha
        except (git.BadName, ValueError, git.GitCommandError):
            raise VersioningError(f"unknown tag or commit {ref!r} in {self.root}") from None

    def tree_of(self, ref: str) -> str:
        """The tree sha of a commit: two commits with the same tree hold the same workspace."""
        return self._commit(ref).tree.hexsha

    def parents(self, ref: str) -> list[str]:
        return [parent.hexsha for parent in self._commit(ref).parents]

    def history(self, ref: str = "HEAD", max_count: int | None = None) -> list[str]:
        """Commit shas reachable from `ref`, newest first."""
        try:
            return [commit.hexsha for commit in self.repo.iter_commits(self.resolve(ref), max_count=max_count)]
        except (git.GitError, ValueError) as exc:
            raise VersioningError(f"cannot read the history of {ref!r} in {self.root} ({exc})") from None

    def _commit(self, ref: str) -> git.Commit:
        try:
            commit = self.repo.commit(self.resolve(ref))
            commit.tree  # noqa: B018 - GitPython reads lazily: a missing object fails here, not later
            return commit
        except (git.GitError, ValueError) as exc:
            raise VersioningError(f"cannot read commit {ref!r} in {self.root} ({exc})") from None

    def read_file(self, ref: str, path: str) -> str:
        commit = self.repo.commit(self.resolve(ref))
        clean = Path(path)
        if clean.is_absolute() or ".." in clean.parts:
            raise VersioningError(f"{path!r}: a path inside the workspace is needed")
        try:
            blob = commit.tree / clean.as_posix()
        except KeyError:
            raise VersioningError(f"{path} does not exist at {ref}") from None
        if blob.type != "blob":
            raise VersioningError(f"{path} is a directory at {ref}")
        return blob.data_stream.read().decode("utf-8", errors="replace")

    def list_dir(self, ref: str, path: str, dirs_only: bool = False) -> list[str]:
        """Names of the entries (with `dirs_only`, the subdirectories) of a directory at `ref`
        (empty if it does not exist)."""
        tree = self._commit(ref).tree
        try:
            sub = tree / path if path else tree
        except KeyError:
            return []
        if sub.type != "tree":
            return []
        return sorted(item.name for item in sub if not dirs_only or item.type == "tree")

    def export(self, ref: str, dest: Path) -> Path:
        """Write the tree of `ref` to the new directory `dest` (no .git): a workspace as it was."""
        import io
        import tarfile

        sha = self.resolve(ref)
        buffer = io.BytesIO()
        self.repo.archive(buffer, treeish=sha, format="tar")
        buffer.seek(0)
        dest.mkdir(parents=True, exist_ok=False)
        with tarfile.open(fileobj=buffer) as archive:
            archive.extractall(dest, filter="data")
        return dest

    def diff(self, ref_a: str, ref_b: str, paths: list[str] | None = None) -> str:
        a, b = self.resolve(ref_a), self.resolve(ref_b)
        try:
            return self.repo.git.diff(a, b, "--", *(paths or []))
        except git.GitError as exc:
            raise VersioningError(f"cannot diff {ref_a} and {ref_b} in {self.root} ({exc})") from None

    def tag_info(self, name: str) -> TagInfo:
        ref = self.repo.tags[name]
        tag_object = ref.tag
        message = tag_object.message if tag_object is not None else ""
        summary, _, rest = message.partition("\n")
        try:
            metrics = json.loads(rest.strip()) if rest.strip() else {}
        except json.JSONDecodeError:
            metrics = {}
        date = datetime.fromtimestamp(tag_object.tagged_date if tag_object else ref.commit.committed_date)
        return TagInfo(name=name, commit=ref.commit.hexsha, date=date, summary=summary.strip(),
                       metrics=metrics if isinstance(metrics, dict) else {})

    def tags(self) -> list[TagInfo]:
        """All tags, `evo-N` ones in numeric order first, then others by name."""
        def order(tag: git.TagReference) -> tuple[int, int, str]:
            match = EVO_TAG.match(tag.name)
            return (0, int(match.group(1)), "") if match else (1, 0, tag.name)

        return [self.tag_info(t.name) for t in sorted(self.repo.tags, key=order)]

    @staticmethod
    def _check_ref_name(ref: str, allow_head: bool = False) -> None:
        if allow_head and ref == "HEAD":
            return
        if not SAFE_REF.match(ref) or ".." in ref or ref.endswith((".lock", "/", ".")):
            raise VersioningError(f"{ref!r} is not a valid tag or commit name")
