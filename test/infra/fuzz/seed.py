"""Seeds a running embedded CodeHealth server with real records for the fuzz run.

Without real identifiers every `{...Id}` path answers 404 and the fuzzer never reaches the code
behind it. This links a local git repository (onboarding runs: clone, analyzers, an assessment
with issues), analyses a pull request, runs an architecture review and convention detection,
records ADRs, a dismiss rule, a second member and a pending invitation, and prints one
`NAME=value` line per identifier for schemathesis.toml (`${NAME}` placeholders).

Usage: seed.py BASE_URL WORK_DIR   (keys in FUZZ_KEY, owner, and FUZZ_MEMBER_KEY, a second user)
       seed.py --verify BASE_URL   (after the run, with the printed identifiers in the environment:
                                    exit 1 naming every seeded record that is gone)
Only the Python standard library: it runs before and independently of the fuzzer's venv.
"""

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

WAIT_SECONDS = 180


class SeedError(Exception):
    pass


class Api:
    def __init__(self, base: str, key: str):
        self.base = base.rstrip("/") + "/api/v1"
        self.key = key

    def call(self, method: str, path: str, body=None, expect=(200, 201), key=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {key or self.key}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                status, text = response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read().decode()
        if status not in expect:
            raise SeedError(f"{method} {path} answered {status}: {text[:500]}")
        return json.loads(text) if text else None

    def wait(self, what: str, probe):
        """Polls `probe` until it returns a value (the embedded runner works in the background)."""
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            value = probe()
            if value is not None:
                return value
            time.sleep(0.5)
        raise SeedError(f"{what} did not finish within {WAIT_SECONDS} s")


def git(root: str, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "Fuzz", "GIT_AUTHOR_EMAIL": "fuzz@example.com",
           "GIT_COMMITTER_NAME": "Fuzz", "GIT_COMMITTER_EMAIL": "fuzz@example.com"}
    return subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True, text=True).stdout.strip()


def write(root: str, files: dict) -> None:
    for path, content in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf8") as handle:
            handle.write(content)


def make_repo(root: str, files: dict) -> str:
    os.makedirs(root)
    git(root, "init", "-q", "-b", "main")
    write(root, files)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial")
    return root


# A small TypeScript code base with findings of several kinds (eval, an unused export, a cycle).
SOURCES = {
    "package.json": json.dumps({"name": "shop", "version": "1.0.0", "license": "MIT"}),
    "src/cart.ts": "import { audit } from './audit.js';\n"
    "export function total(items: { price: number; qty: number }[]): number {\n"
    "  audit('total');\n  return items.reduce((sum, item) => sum + item.price * item.qty, 0);\n}\n",
    "src/audit.ts": "import { total } from './cart.js';\nexport function audit(what: string): void {\n"
    "  if (what === 'self') total([]);\n}\nexport const unusedHelper = 42;\n",
    "src/run.ts": "export function runUserCode(code: string): unknown {\n  return eval(code);\n}\n",
    "test/cart.test.ts": "import { total } from '../src/cart.js';\nif (total([]) !== 0) throw new Error('total');\n",
}


def latest_assessment(api: Api, project: str, after: str | None = None):
    items = api.call("GET", f"/projects/{project}/health/assessments?limit=1")["items"]
    if not items or items[0]["id"] == after or items[0]["status"] not in ("completed", "failed"):
        return None
    return items[0]


def seed(base: str, work: str) -> dict:
    owner = Api(base, os.environ["FUZZ_KEY"])
    member_key = os.environ["FUZZ_MEMBER_KEY"]
    ids = {}

    project = owner.call("POST", "/projects", {"name": "Fuzz", "key": "fuzz", "description": "fuzz target"})["id"]
    ids["FUZZ_PROJECT_ID"] = project
    ids["FUZZ_DOOMED_PROJECT_ID"] = owner.call("POST", "/projects", {"name": "Fuzz (deleted)", "key": "fuzz-doomed"})["id"]

    repo = make_repo(os.path.join(work, "shop"), SOURCES)
    added = owner.call("POST", f"/projects/{project}/repos/add-public", {"url": f"file://{repo}"})
    ids["FUZZ_REPO_ID"] = added["repository"]["id"]
    ids["FUZZ_SESSION_ID"] = added["onboarding_session_id"]
    first = owner.wait("onboarding (initial assessment)", lambda: latest_assessment(owner, project))
    if first["status"] != "completed":
        raise SeedError(f"the initial assessment failed: {json.dumps(first)}")

    # A pull request (GitHub's ref convention) and a second assessment after a change on main,
    # so drift alerts and PR analyses exist.
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo, {"src/run.ts": SOURCES["src/run.ts"] + "export function again(code: string): unknown {\n  return eval(code + ';');\n}\n"})
    git(repo, "commit", "-q", "-am", "Run code twice")
    git(repo, "update-ref", "refs/pull/1/head", git(repo, "rev-parse", "HEAD"))
    git(repo, "checkout", "-q", "main")
    analysis = owner.call("POST", f"/projects/{project}/repos/{ids['FUZZ_REPO_ID']}/prs/1/analyze", {})
    ids["FUZZ_ANALYSIS_ID"] = analysis["id"]
    ids["FUZZ_PR_NUMBER"] = "1"
    owner.wait("the PR analysis", lambda: (lambda a: a if a["status"] in ("completed", "failed") else None)(
        owner.call("GET", f"/projects/{project}/pr-analyses/{analysis['id']}")))

    write(repo, {f"src/generated{i}.ts": f"export function run{i}(code: string): unknown {{\n  return eval(code);\n}}\n" for i in range(6)})
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "More dynamic code")
    owner.call("POST", f"/projects/{project}/health/trigger")
    second = owner.wait("the second assessment", lambda: latest_assessment(owner, project, after=first["id"]))
    ids["FUZZ_ASSESSMENT_ID"] = second["id"]
    alerts = owner.call("GET", f"/projects/{project}/health/drift-alerts")
    ids["FUZZ_ALERT_ID"] = alerts[0]["id"] if alerts else "00000000-0000-4000-8000-000000000000"

    issues = owner.call("GET", f"/projects/{project}/analysis/issues?limit=1")["issues"]
    if not issues:
        raise SeedError("the assessment found no issue in the seeded repository")
    ids["FUZZ_ISSUE_ID"] = issues[0]["id"]
    ids["FUZZ_RULE_ID"] = owner.call("POST", f"/projects/{project}/analysis/dismiss-rules",
                                     {"rule_pattern": "no-such-rule-*", "reason": "fuzz"})["id"]

    review = owner.call("POST", f"/projects/{project}/architecture/reviews/trigger")
    ids["FUZZ_REVIEW_ID"] = review["id"]
    owner.wait("the architecture review", lambda: (lambda r: r if r["status"] in ("completed", "failed") else None)(
        owner.call("GET", f"/projects/{project}/architecture/reviews/{review['id']}")))
    owner.call("POST", f"/projects/{project}/architecture/conventions/detect")
    conventions = owner.wait("convention detection", lambda: owner.call("GET", f"/projects/{project}/architecture/conventions") or None)
    ids["FUZZ_CONVENTION_ID"] = conventions[0]["id"]
    first_adr = owner.call("POST", f"/projects/{project}/architecture/adrs", {"title": "Use PGlite when embedded", "decision": "yes"})
    ids["FUZZ_ADR_ID"] = owner.call("POST", f"/projects/{project}/architecture/adrs", {"title": "Fuzz the API", "status": "accepted"})["id"]
    ids["FUZZ_OTHER_ADR_ID"] = first_adr["id"]

    # A second repository that the unlink operation may remove without starving the others.
    spare = make_repo(os.path.join(work, "spare"), {"src/index.ts": "export const one = 1;\n"})
    ids["FUZZ_SPARE_REPO_ID"] = owner.call("POST", f"/projects/{project}/repos/add-public",
                                           {"url": f"file://{spare}", "skip_onboarding": True})["repository"]["id"]

    # A second member (invited and accepted), and a pending invitation for the fuzz user.
    invitation = owner.call("POST", f"/projects/{project}/invitations", {"email": os.environ["FUZZ_MEMBER_EMAIL"]})
    owner.call("POST", f"/invitations/{invitation['id']}/accept", key=member_key)
    members = owner.call("GET", f"/projects/{project}/members")
    ids["FUZZ_MEMBER_USER_ID"] = next(m["user_id"] for m in members if m["role"] == "member")
    foreign = owner.call("POST", "/projects", {"name": "Member's", "key": "fuzz-foreign"}, key=member_key)["id"]
    ids["FUZZ_INVITATION_ID"] = owner.call("POST", f"/projects/{foreign}/invitations",
                                           {"email": os.environ["FUZZ_EMAIL"]}, key=member_key)["id"]

    # A key the revoke operation may delete (never the one the fuzzer authenticates with).
    ids["FUZZ_SPARE_KEY_ID"] = owner.call("POST", "/api-keys", {"name": "fuzz spare", "description": "revoked by the fuzzer"})["id"]
    return ids


def verify(base: str) -> list:
    """After the fuzz run: the records no generated request was meant to remove are all still there."""
    owner = Api(base, os.environ["FUZZ_KEY"])
    project = os.environ["FUZZ_PROJECT_ID"]
    expected = {
        "the project": f"/projects/{project}",
        "the assessment": f"/projects/{project}/health/assessments/{os.environ['FUZZ_ASSESSMENT_ID']}",
        "the issue": f"/projects/{project}/analysis/issues/{os.environ['FUZZ_ISSUE_ID']}",
        "the PR analysis": f"/projects/{project}/pr-analyses/{os.environ['FUZZ_ANALYSIS_ID']}",
        "the architecture review": f"/projects/{project}/architecture/reviews/{os.environ['FUZZ_REVIEW_ID']}",
        "the ADR": f"/projects/{project}/architecture/adrs/{os.environ['FUZZ_ADR_ID']}",
    }
    lost = []
    for what, path in expected.items():
        try:
            owner.call("GET", path, expect=(200,))
        except SeedError as error:
            lost.append(f"{what}: {error}")
    repos = [repo["id"] for repo in owner.call("GET", f"/projects/{project}/repos")]
    if os.environ["FUZZ_REPO_ID"] not in repos:
        lost.append("the linked repository is no longer linked")
    return lost


def main() -> int:
    try:
        if len(sys.argv) == 3 and sys.argv[1] == "--verify":
            lost = verify(sys.argv[2])
            for line in lost:
                print(f"lost: {line}", file=sys.stderr)
            return 1 if lost else 0
        if len(sys.argv) != 3:
            print(__doc__, file=sys.stderr)
            return 2
        ids = seed(sys.argv[1], sys.argv[2])
    except (SeedError, subprocess.CalledProcessError, urllib.error.URLError) as error:
        print(f"seed: {error}", file=sys.stderr)
        return 1
    for name, value in ids.items():
        print(f"{name}={value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
