import { describe, expect, it } from "vitest";
import { groupByRootCause } from "./failure-groups.js";
import { failureOf } from "../failure-of.js";

describe("groupByRootCause", () => {
  it("keeps long strings that differ in the same word apart: their pairs differ (change-case)", () => {
    const titled = (test: string, expected: string, received: string) =>
      failureOf({
        test,
        file: "src/index.spec.ts",
        line: 159,
        expected,
        received,
        message: `AssertionError: expected '${received.slice(0, 37)}…' to deeply equal '${expected.slice(0, 37)}…'`,
      });
    const words = titled(
      "swap case > words",
      "Start a an and as at but by en for if in nor of on or per the to v vs via End",
      "Start a an and as at but by en for if in nor of on or per The to v vs via End",
    );
    const climate = titled(
      "swap case > climate",
      "Is Human Activity Responsible for the Climate Emergency? New Report Calls It ‘Unequivocal.’",
      "Is Human Activity Responsible for The Climate Emergency? New Report Calls It ‘Unequivocal.’",
    );
    expect(groupByRootCause([words, climate])).toHaveLength(2);
    // The same pair twice is one cause.
    expect(groupByRootCause([words, { ...words, test: "swap case > again" }])).toHaveLength(1);
  });

  it("groups an error thrown at one line whatever nullish value the data held, and keeps other words apart (superstruct)", () => {
    const thrown = (test: string, message: string, line = 50) =>
      failureOf({ test, file: "src/utils.ts", line, expected: null, received: null, message });
    const ofUndefined = thrown(
      "validation > defaulted > strict",
      "TypeError: Cannot read properties of undefined (reading 'toString')",
    );
    const ofNull = thrown(
      "validation > deprecated > invalid-null",
      "TypeError: Cannot read properties of null (reading 'toString')",
    );
    expect(groupByRootCause([ofUndefined, ofNull])).toHaveLength(1);
    expect(groupByRootCause([ofUndefined, { ...ofNull, line: 51 }])).toHaveLength(2);
    const notAFunction = thrown("validation > x", "TypeError: value.toString is not a function");
    expect(groupByRootCause([ofUndefined, notAFunction])).toHaveLength(2);
  });

  it("groups an error thrown by name at one line whatever address its words hold, and keeps a check's rows apart (proxy-addr, csscolorparser)", () => {
    const thrown = (test: string, address: string) =>
      failureOf({
        test,
        file: "index.js",
        line: 195,
        expected: null,
        received: null,
        message: `TypeError: invalid range on address: ${address}`,
      });
    const addresses = ["10.0.0.2/26", "fe80::/125", "::ffff:a00:2/122", "::1/128"];
    expect(
      groupByRootCause(addresses.map((address, index) => thrown(`trust ${index}`, address))),
    ).toHaveLength(1);
    // A check's own words at one line, not an error's: each row's data is its own cause.
    const row = (color: string) =>
      failureOf({
        test: "TestInvalidData",
        file: "colorparser_test.go",
        line: 262,
        expected: null,
        received: null,
        message: `Wrong rgb() components, ${color}`,
      });
    expect(groupByRootCause([row("rgb(0,255,8s)"), row("rgb(100%,z9%,75%)")])).toHaveLength(2);
  });

  it("groups a distinctive pair wherever and by whichever matcher it was checked, not a trivial one (necromancer)", () => {
    const check = (
      file: string,
      line: number,
      message: string,
      expected: string,
      received: string,
    ) => failureOf({ test: `${file}:${line}`, file, line, expected, received, message });
    const range = [
      check(
        "spec/range_spec.rb",
        26,
        "Failure/Error: expect(converter.(actual)).to eql(expected)",
        "1..10",
        "1...10",
      ),
      check(
        "spec/convert_spec.rb",
        165,
        'Failure/Error: expect(converter.convert("1-10").to(:range)).to eq(1..10)',
        "1..10",
        "1...10",
      ),
    ];
    expect(groupByRootCause(range)).toHaveLength(1);
    const trivial = [
      check("spec/a_spec.rb", 3, "Failure/Error: expect(a.valid?).to eq(true)", "true", "false"),
      check("spec/b_spec.rb", 9, "Failure/Error: expect(b.empty?).to be(true)", "true", "false"),
    ];
    expect(groupByRootCause(trivial)).toHaveLength(2);
  });

  it("keeps one error's words thrown at two lines of the code apart, and groups them thrown where tests called (javascript-algorithms)", () => {
    const thrown = (test: string, file: string, line: number) =>
      failureOf({
        test,
        file,
        line,
        expected: null,
        received: null,
        message: "TypeError: Cannot read properties of null (reading 'value')",
      });
    const deque = "src/data-structures/deque/Deque.js";
    expect(
      groupByRootCause([
        thrown("peeks an empty deque", deque, 26),
        thrown("removes from an empty deque", deque, 65),
        thrown("peeks a single element", deque, 26),
      ]).map((group) => group.length),
    ).toEqual([2, 1]);
    const spec = "src/data-structures/deque/__test__/Deque.test.js";
    expect(
      groupByRootCause([thrown("a", spec, 15), thrown("b", spec, 22)]).map((group) => group.length),
    ).toEqual([2]);
  });

  it("groups a Python object's rows at one line that differ in the same field the same way (python-dotenv)", () => {
    const binding = (test: string, key: string, wanted: number, got: number) =>
      failureOf({
        test,
        file: "tests/test_parser.py",
        line: 582,
        expected: `Binding(key='${key}', value='b', original=Original(string='${key}=b', line=${wanted}), error=False)`,
        received: `Binding(key='${key}', value='b', original=Original(string='${key}=b', line=${got}), error=False)`,
        message:
          "AssertionError: assert [Binding(key=... error=False)] == [Binding(key=... error=False)]",
      });
    expect(
      groupByRootCause([
        binding("test_parse_stream[a=b-expected1]", "a", 1, 0),
        binding("test_parse_stream[b=c-expected2]", "b", 1, 0),
      ]),
    ).toHaveLength(1);
  });

  it("groups a Go table's rows whose words name their own case, one pair at one line (mux)", () => {
    const row = (title: string, expected = "https") =>
      failureOf({
        test: `TestSchemes/${title.replaceAll(" ", "_")}`,
        file: "mux_test.go",
        line: 1891,
        expected,
        received: "ftp",
        message: `(${title}) URLScheme not equal: expected ${expected}, got ftp`,
      });
    expect(
      groupByRootCause([row("Schemes route, match https"), row("Schemes route, match ftp")]),
    ).toHaveLength(1);
    expect(
      groupByRootCause([row("Schemes route, match https"), row("Schemes route, match ftp", "ws")]),
    ).toHaveLength(2);
  });

  it("groups a table's rows checked at one line with one pair, whatever literal each quotes (go-runewidth)", () => {
    const row = (rune: string, line = 223, received = "1") =>
      failureOf({
        test: "TestRuneWidth",
        file: "runewidth_test.go",
        line,
        expected: "2",
        received,
        message: `RuneWidth('${rune}') = ${received}, want 2 (EastAsianWidth=true)`,
      });
    expect(groupByRootCause([row("☆"), row("♥"), row("♣")])).toHaveLength(1);
    // Another line, or another pair, is another cause.
    expect(groupByRootCause([row("☆"), row("♥", 224)])).toHaveLength(2);
    expect(groupByRootCause([row("☆"), row("♥", 223, "0")])).toHaveLength(2);
  });
  it("groups one pair checked at one line whatever data its words format, and keeps other pairs and lines apart (doublestar)", () => {
    const row = (test: string, opts: string, line = 648, received = "2") =>
      failureOf({
        test,
        file: "doublestar_test.go",
        line,
        expected: "3",
        received,
        message: `#55. Glob(\`[a-b-d]\`, opts: ${opts}) = []string{"-", "a"} - should have 3 results, got ${received}`,
      });
    expect(
      groupByRootCause([row("TestGlob", "nil"), row("TestGlobWalk", "WithCaseInsensitive")]),
    ).toHaveLength(1);
    expect(
      groupByRootCause([row("TestGlob", "nil"), row("TestGlobWalk", "WithCaseInsensitive", 649)]),
    ).toHaveLength(2);
    expect(
      groupByRootCause([
        row("TestGlob", "nil"),
        row("TestGlobWalk", "WithCaseInsensitive", 648, "1"),
      ]),
    ).toHaveLength(2);
  });

  it("groups one pair whose words are only the two sides as unittest shortened them, not words with labels (python-slugify)", () => {
    const dicts = (test: string, line: number, tail: string) =>
      failureOf({
        test,
        file: "test.py",
        line,
        expected: "'save_order': False,",
        received: "'save_order': None,",
        message: `AssertionError: {'ent[102 chars]er': False, 'stopwords': Non[38 chars]${tail} != {'ent[102 chars]er': None, 'stopwords': None[37 chars]${tail}`,
      });
    expect(
      groupByRootCause([
        dicts("test_defaults", 596, "None}"),
        dicts("test_replacements", 618, "D']]}"),
      ]),
    ).toHaveLength(1);
    const labelled = (test: string, line: number, call: string) =>
      failureOf({
        test,
        file: "doublestar_test.go",
        line,
        expected: "false, <nil>",
        received: "true, <nil>",
        message: `#37. ${call} != path.Match(...). Got true, <nil> want false, <nil>`,
      });
    expect(
      groupByRootCause([
        labelled("TestMatch", 262, "Match(a)"),
        labelled("TestPathMatch", 368, "PathMatch(a)"),
      ]),
    ).toHaveLength(2);
  });

  it("groups one pair checked by one matcher on different subjects, and tells matchers apart (strings-case)", () => {
    const spec = (name: string, line: number, matcher = "to eq(expected)") =>
      failureOf({
        test: `Strings::Case#${name} applies ${name} to "" -> ""`,
        file: `spec/unit/${name}_spec.rb`,
        line,
        expected: '""',
        received: "nil",
        message: `Failure/Error: expect(described_class.${name}(actual)).${matcher}`,
      });
    expect(groupByRootCause([spec("camelcase", 32), spec("constcase", 31)])).toHaveLength(1);
    expect(
      groupByRootCause([spec("camelcase", 32), spec("constcase", 31, "not_to eq(expected)")]),
    ).toHaveLength(2);
  });
});
