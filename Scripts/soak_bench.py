"""Scripts/bench --soak [SECONDS]: the generated tests (every suite named Generated…: the line
protocol, the pure model, RESP, HTTP GET and POST) over random seeds for SECONDS, on every
store with a private PostgreSQL, in rounds of 50 seeds. A failing round prints its seeds'
failures and the command that repeats them; a seed that failed becomes a fixed test. Then
the history checker's long form: a tenth of SECONDS on memory and on SQLite each
(Scripts/history-check.py), and under faults on SQLite killed and on a 3-node cluster
(Scripts/history_faults.py), with a random seed it prints; then the LiveList chaos suites
(memory, SQLite, a 3-node cluster) with a tenth of SECONDS' worth of writes in each phase
(about 200 a second) instead of 400."""
import os, random, re, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROUND = 50


def run(seconds):
    subprocess.run(["swift", "build", "--build-tests"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    env = dict(os.environ)
    pgdir = None
    if "TABULA_TEST_POSTGRES" not in env:
        pgdir = tempfile.mkdtemp(prefix="tabula-soak-pg.", dir="/tmp")
        os.chmod(pgdir, 0o755)
        env["TABULA_TEST_POSTGRES"] = subprocess.check_output([os.path.join(ROOT, "Scripts", "postgres"), "start", pgdir], text=True).strip()
    failed = False
    try:
        deadline, rounds = time.time() + seconds, 0
        while time.time() < deadline and not failed:
            first = random.randrange(1_000, 1 << 40)
            seeds = "%d-%d" % (first, first + ROUND - 1)
            env["TABULA_SEEDS"] = seeds
            p = subprocess.run(["swift", "test", "--skip-build", "--filter", "Generated"], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            rounds += 1
            if p.returncode != 0:
                failed = True
                # The failed expectations and their messages (which name the seed), not the
                # lines that report each seed's test case starting or passing.
                failed_lines = [l for l in p.stdout.splitlines() if "✘" in l or ("seed " in l and "Test case passing" not in l)]
                for line in failed_lines[:40]:
                    print(line[:2000])
                found = sorted(set(re.findall(r"seed (\d+)", "\n".join(failed_lines))))
                print("FAILED: seeds %s (round %s); repeat with: TABULA_SEEDS=%s swift test --filter Generated" % (", ".join(found) or "?", seeds, seeds))
        print("soak: %d rounds of %d seeds in %.0f s, %s" % (rounds, ROUND, seconds - max(0, deadline - time.time()), "a failure" if failed else "no failure"))
        for store in ("memory", "sqlite"):
            if failed:
                break
            seed = str(random.randrange(1, 1 << 31))
            h = subprocess.run([sys.executable, os.path.join(ROOT, "Scripts", "history-check.py"), "--store", store, "--seconds", str(max(10, seconds // 10)), "--clients", "9", "--seed", seed], cwd=ROOT)
            failed = h.returncode != 0
        for store in ("sqlite-kill", "cluster"):  # under faults (history_faults.py)
            if failed:
                break
            seed = str(random.randrange(1, 1 << 31))
            h = subprocess.run([sys.executable, os.path.join(ROOT, "Scripts", "history_faults.py"), "--store", store, "--seconds", str(max(20, seconds // 10)), "--seed", seed], cwd=ROOT, env=env)
            failed = h.returncode != 0
        if not failed:
            env["TABULA_CHAOS_WRITES"] = str(max(400, seconds // 10 * 200))
            c = subprocess.run(["swift", "test", "--skip-build", "--filter", "LiveListChaosTests|LiveListClusterTests"], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            for line in c.stdout.splitlines():
                if "chaos" in line or "✘" in line:
                    print(line[:2000])
            failed = c.returncode != 0
    finally:
        if pgdir:
            subprocess.run([os.path.join(ROOT, "Scripts", "postgres"), "stop", pgdir, "immediate"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            subprocess.run(["rm", "-rf", pgdir])
    return 1 if failed else 0
