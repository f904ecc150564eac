"""Unit tests for scripts/check_results.py on synthetic guest consoles,
read by kunit.py's parser of the prepared tree (KUNIT_TOOL, default
.work/linux/tools/testing/kunit: tests/run.sh runs these after the main job)."""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
SCRIPT = os.path.join(REPO, 'scripts', 'check_results.py')
KUNIT_TOOL = os.environ.get('KUNIT_TOOL',
                            os.path.join(REPO, '.work', 'linux', 'tools', 'testing', 'kunit'))


def group(name, cases=(), subs=()):
    return {'name': name, 'test_cases': [{'name': n, 'status': s} for n, s in cases],
            'sub_groups': list(subs)}


def ktap(tree, logs):
    """The KTAP a 6.1 guest prints for @tree (group() nodes; a case's status
    PASS, FAIL, SKIP, or ERROR: its result line never came), each case's
    lines of @logs ({case: [lines]}) logged before its result."""
    out = ['KTAP version 1']

    def emit(node, depth):
        ind = '    ' * depth
        items = node['sub_groups'] + node['test_cases']
        out.append(f'{ind}1..{len(items)}')
        for n, item in enumerate(items, 1):
            if 'sub_groups' in item:
                out.extend([f'{ind}    KTAP version 1', f'{ind}    # Subtest: {item["name"]}'])
                emit(item, depth + 1)
            out.extend(f'{ind}    {line}' for line in logs.get(item['name'], []))
            status = item.get('status', 'PASS')
            if status != 'ERROR':
                out.append(f'{ind}{"not ok" if status == "FAIL" else "ok"} {n} {item["name"]}'
                           + (' # SKIP' if status == 'SKIP' else ''))
    emit(tree, 0)
    return ''.join(line + '\n' for line in out)


class CheckResults(unittest.TestCase):
    def run_check(self, tree, manifest, console='', *extra, logs=None):
        """check_results.py on @console (the boot's lines) followed by the
        KTAP of @tree (none if None) with @logs."""
        with tempfile.TemporaryDirectory() as d:
            paths = {k: os.path.join(d, k) for k in ('console', 'manifest')}
            with open(paths['console'], 'w') as f:
                f.write(console + (ktap(tree, logs or {}) if tree is not None else ''))
            with open(paths['manifest'], 'w') as f:
                f.write(manifest)
            args = [sys.executable, SCRIPT, '--kunit-tool', KUNIT_TOOL] + \
                [a for k, v in paths.items() for a in ('--' + k, v)] + list(extra)
            p = subprocess.run(args, capture_output=True, text=True)
            return p.returncode, p.stdout + p.stderr

    def tree(self, prog_status='PASS', rb_status='PASS'):
        return group('KUnit Test Group', subs=[
            group('bpf_graph_rb_cached', [('rb_case', rb_status)]),
            group('bpf_graph_progs', subs=[group('bpf_prog', [('prog_a', prog_status)])])])

    def test_all_passed(self):
        rc, out = self.run_check(self.tree(), 'prog_a obj.o pass\n')
        self.assertEqual(rc, 0, out)
        self.assertIn('results: 2 passed, 0 failed, 0 skipped', out)

    def test_test_verifier_variant_that_did_not_report(self):
        tree = self.tree()
        tree['sub_groups'].append(group('bpf_test_verifier', subs=[
            group('tv_verdict', [('0/u first', 'PASS'), ('0/p first', 'PASS')])]))
        with tempfile.NamedTemporaryFile('w', suffix='.expected') as f:
            f.write('0/u\tOK\n0/p\tOK\n1/p\tOK\n')
            f.flush()
            rc, out = self.run_check(tree, 'prog_a obj.o pass\n', '', '--tv-expected', f.name)
        self.assertEqual(rc, 1)
        self.assertIn('bpf_test_verifier.tv_verdict: 2 of 3 test_verifier case variants reported', out)

    def test_skip_is_a_failure(self):
        rc, out = self.run_check(self.tree(rb_status='SKIP'), 'prog_a obj.o pass\n')
        self.assertEqual(rc, 1)
        self.assertIn('FAILED: bpf_graph_rb_cached.rb_case: SKIP', out)

    def test_crash_is_a_failure(self):
        # the guest died inside prog_a: kunit.py's parse has a crashed case
        rc, out = self.run_check(self.tree(prog_status='ERROR'), 'prog_a obj.o pass\n')
        self.assertEqual(rc, 1)
        self.assertIn('FAILED: bpf_graph_progs.bpf_prog.: ERROR', out)
        self.assertIn('FAILED: selftest prog_a: did not report', out)

    def test_manifest_entry_that_did_not_report(self):
        rc, out = self.run_check(self.tree(), 'prog_a obj.o pass\nprog_b obj.o fail\n')
        self.assertEqual(rc, 1)
        self.assertIn('selftest prog_b: did not report', out)

    def test_glob_excluding_selftests_needs_no_report(self):
        tree = group('KUnit Test Group', subs=[group('bpf_graph_rb_cached', [('rb_case', 'PASS')])])
        rc, out = self.run_check(tree, 'prog_a obj.o pass\n', '', '--glob', 'bpf_graph_rb_cached')
        self.assertEqual(rc, 0, out)

    def test_console_without_ktap_is_a_harness_failure(self):
        rc, out = self.run_check(None, 'prog_a obj.o pass\n', '[    0.1] Linux version 6.1\n')
        self.assertEqual(rc, 2)     # nothing ran: exit 2, not a test failure
        self.assertIn('FAILED: no test ran', out)

    def test_before_its_first_patch_a_failure_is_tolerated(self):
        with tempfile.NamedTemporaryFile('w', suffix='.list') as firsts:
            firsts.write('prog_a 0007\n')
            firsts.flush()
            args = ('--first-patch', firsts.name, '--last', '9')
            rc, out = self.run_check(self.tree('FAIL'), 'prog_a obj.o pass\n', '',
                                     *args, '--prefix', '6')
            self.assertEqual(rc, 0, out)
            self.assertIn('1 not yet', out)
            rc, out = self.run_check(self.tree('FAIL'), 'prog_a obj.o pass\n', '',
                                     *args, '--prefix', '7')
            self.assertEqual(rc, 1, out)

    def test_records_name_timeouts_and_misses(self):
        logs = {'prog_a': ['# bpf_prog: prog_a: spin: FAIL: expected x == 1, actual 2',
                           '# bpf_prog: prog_a: timed out after 30 s, killed',
                           '# bpf_prog: prog_a: loader ran for 30012 ms']}
        with tempfile.TemporaryDirectory() as d:
            out_path = os.path.join(d, 'tests.json')
            rc, out = self.run_check(self.tree('FAIL'), 'prog_a obj.o pass\nprog_b obj.o pass\n',
                                     '', '--records', out_path, logs=logs)
            records = {r['name']: r for r in json.load(open(out_path))}
        self.assertEqual(rc, 1)
        self.assertEqual(records['prog_a']['status'], 'timeout')
        self.assertEqual(records['prog_a']['duration_ms'], 30012)
        self.assertIn('spin: FAIL: expected x == 1, actual 2', records['prog_a']['expected'])
        self.assertEqual(records['prog_b']['status'], 'miss')
        self.assertEqual(records['bpf_graph_rb_cached.rb_case']['status'], 'pass')

    def test_records_of_a_splat_a_denylisted_test_and_a_silent_suite(self):
        console = '[    2.1] BUG: KASAN: use-after-free in foo\n'
        with tempfile.TemporaryDirectory() as d:
            out_path, denied = os.path.join(d, 'tests.json'), os.path.join(d, 'denied')
            with open(denied, 'w') as f:
                f.write('prog_z\tflaky under TCG\n')
            with open(os.path.join(d, 'config'), 'w') as f:
                f.write('CONFIG_T=y\nCONFIG_U=y\n')
            rc, out = self.run_check(self.tree(), 'prog_a obj.o pass\n', console,
                                     '--records', out_path, '--denied', denied,
                                     '--kunit-dir', self.kunit_dir(d),
                                     '--kconfig', os.path.join(d, 'config'))
            records = {r['name']: r for r in json.load(open(out_path))}
        self.assertEqual(rc, 1)
        self.assertEqual(records['kernel.splat']['status'], 'fail')
        self.assertEqual(records['kernel.splat']['log'], ['[    2.1] BUG: KASAN: use-after-free in foo'])
        self.assertEqual(records['prog_z'], {'name': 'prog_z', 'kind': 'selftest', 'status': 'skip',
                                             'reason': 'denylisted: flaky under TCG'})
        self.assertEqual(records['probe']['status'], 'miss')
        # the closing line's failures are all records that did not pass
        failed = int(re.search(r'(\d+) failed', out).group(1))
        self.assertEqual(failed, sum(r['status'] in ('fail', 'error', 'miss', 'timeout')
                                     for r in records.values()))

    def test_stats_csv_has_a_row_per_program(self):
        logs = {'prog_a': ['# bpf_prog: prog_a: stats: prog_a verdict=accepted insns=12 '
                           'total_states=3 peak_states=2 time_us=-1']}
        with tempfile.TemporaryDirectory() as d:
            out_path = os.path.join(d, 'stats.csv')
            self.run_check(self.tree(), 'prog_a obj.o pass\n', '', '--stats-csv', out_path,
                           logs=logs)
            rows = open(out_path).read().splitlines()
        self.assertEqual(rows, ['file_name,prog_name,verdict,total_insns,total_states,peak_states',
                                'obj.o,prog_a,success,12,3,2'])

    def test_splat_is_a_failure_in_every_run(self):
        console = '[    2.1] BUG: KASAN: use-after-free in foo\n'
        rc, out = self.run_check(self.tree(), 'prog_a obj.o pass\n', console)
        self.assertEqual(rc, 1)
        self.assertIn('kernel splat: [    2.1] BUG: KASAN', out)

    def allowlist(self, text):
        f = tempfile.NamedTemporaryFile('w', suffix='.allow', delete=False)
        f.write(text)
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_allowlisted_splat_passes(self):
        console = '[    1.0] WARNING: CPU: 0 PID: 1 at boot.c:1 quirk\n'
        allow = self.allowlist('# header\nat boot\\.c:1 quirk  # a firmware quirk of QEMU\n')
        rc, out = self.run_check(self.tree(), 'prog_a obj.o pass\n', console,
                                 '--allowlist', allow)
        self.assertEqual(rc, 0, out)

    def test_allowlist_entry_needs_a_reason(self):
        allow = self.allowlist('at boot\\.c:1 quirk\n')
        rc, out = self.run_check(self.tree(), 'prog_a obj.o pass\n', '', '--allowlist', allow)
        self.assertEqual(rc, 1)
        self.assertIn('needs a pattern and "# reason"', out)

    def kunit_dir(self, d):
        """kunit/ with bpf_graph_rb_cached always built, bpf_graph_kmemleak_end
        only under KMEMLEAK, probe only under CONFIG_U."""
        with open(os.path.join(d, 'Makefile'), 'w') as f:
            f.write('obj-$(CONFIG_T) += rb.o\nifdef CONFIG_DEBUG_KMEMLEAK\n'
                    'obj-$(CONFIG_T) += leak.o\nendif\nobj-$(CONFIG_U) += probe.o\n')
        for name, suite in (('rb.c', 'bpf_graph_rb_cached'),
                            ('leak.c', 'bpf_graph_kmemleak_end'), ('probe.c', 'probe')):
            with open(os.path.join(d, name), 'w') as f:
                f.write('static struct kunit_suite s = {\n\t.name = "%s",\n};\n' % suite)
        return d

    def test_suite_that_did_not_report_is_a_failure(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, 'config'), 'w') as f:
                f.write('CONFIG_T=y\nCONFIG_DEBUG_KMEMLEAK=y\n')
            args = ('--kunit-dir', self.kunit_dir(d), '--kconfig', os.path.join(d, 'config'))
            rc, out = self.run_check(self.tree(), 'prog_a obj.o pass\n', '', *args)
            self.assertEqual(rc, 1)
            self.assertIn('suite bpf_graph_kmemleak_end: built from kunit/ but did not report', out)
            self.assertNotIn('suite probe', out)
            with open(os.path.join(d, 'config'), 'w') as f:
                f.write('CONFIG_T=y\nCONFIG_U=y\n')
            rc, out = self.run_check(self.tree(), 'prog_a obj.o pass\n', '', *args)
            self.assertEqual(rc, 1)
            self.assertIn('suite probe: built from kunit/ but did not report', out)
            with open(os.path.join(d, 'config'), 'w') as f:
                f.write('CONFIG_T=y\n# CONFIG_DEBUG_KMEMLEAK is not set\n')
            rc, out = self.run_check(self.tree(), 'prog_a obj.o pass\n', '', *args)
            self.assertEqual(rc, 0, out)

    def bless(self, *report):
        """Bless prog_a from its @report lines; return what its expected log became."""
        logs = {'prog_a': [f'# bpf_prog: prog_a: {line}' for line in report]}
        with tempfile.TemporaryDirectory() as exp:
            rc, out = self.run_check(self.tree(), 'prog_a obj.o fail\n', '',
                                     '--bless', exp, logs=logs)
            self.assertEqual(rc, 0, out)
            with open(os.path.join(exp, 'prog_a.log')) as f:
                return f.read()

    def test_bless_leaves_a_program_with_msg_alone(self):
        logs = {'prog_a': ['# bpf_prog: prog_a: bless-skip: its message is stated by __msg']}
        with tempfile.TemporaryDirectory() as exp:
            rc, out = self.run_check(self.tree(), 'prog_a obj.o fail\n', '', '--bless', exp,
                                     logs=logs)
            self.assertEqual(rc, 0, out)
            self.assertEqual(os.listdir(exp), [])
        self.assertNotIn('no actual error', out)
        self.assertIn('bless: 0 expected log(s) changed', out)

    def test_bless_writes_the_error(self):
        self.assertEqual(self.bless('bless-line: R1 invalid mem access'), 'R1 invalid mem access\n')

    def test_bless_keeps_map_error_then_verifier_error(self):
        self.assertEqual(self.bless('bless-line: libbpf: Error in bpf_create_map_xattr(m)',
                                    "bless-line: map 'm' has to have BTF"),
                         "libbpf: Error in bpf_create_map_xattr(m)\nmap 'm' has to have BTF\n")

    def test_bless_prefers_the_loaders_proposal(self):
        # a line added to the expected log by hand, still matched, survives
        self.assertEqual(self.bless('actual-error: R1 invalid mem access',
                                    'bless-line:  frame1: R1=ptr_node_data(non_own_ref)',
                                    'bless-line: R1 invalid mem access'),
                         ' frame1: R1=ptr_node_data(non_own_ref)\nR1 invalid mem access\n')

    def test_splat_is_told_on_the_test_it_happened_in(self):
        logs = {'prog_a': ['WARNING: CPU: 0 PID: 9 at kernel/bpf/helpers.c:1 f']}
        with tempfile.TemporaryDirectory() as d:
            out_path = os.path.join(d, 'tests.json')
            rc, out = self.run_check(self.tree(), 'prog_a obj.o pass\n', '', '--records', out_path,
                                     logs=logs)
            splats = [r for r in json.load(open(out_path)) if r['name'] == 'kernel.splat']
        self.assertEqual(rc, 1)
        self.assertEqual([r['test'] for r in splats], ['prog_a'])

if __name__ == '__main__':
    unittest.main()
