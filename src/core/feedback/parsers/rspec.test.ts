import { describe, expect, it } from "vitest";
import { rspecParser } from "./rspec.js";

const OUTPUT = `..F*

Pending: (Failures listed here are expected and do not affect your suite's status)

  1) Price rounds cents
     # Temporarily skipped with xit
     # ./spec/price_spec.rb:9

Failures:

  1) Price parses euros
     Failure/Error: expect(Price.parse("3,50 €")).to eq(3.5)

     NoMethodError:
       undefined method \`delete' for nil:NilClass
     # /usr/lib/ruby/3.1.0/forwardable.rb:238:in \`delete'
     # ./lib/price.rb:3:in \`parse'
     # ./spec/price_spec.rb:5:in \`block (2 levels) in <top (required)>'

  2) Price keeps the id
     Failure/Error: expect(Price.new(7).id).to eq(7)

       expected: 7
            got: "7"

       (compared using ==)
     # ./spec/price_spec.rb:12:in \`block (2 levels) in <top (required)>'

Finished in 0.01 seconds (files took 0.1 seconds to load)
4 examples, 2 failures, 1 pending

Failed examples:

rspec ./spec/price_spec.rb:4 # Price parses euros
rspec ./spec/price_spec.rb:11 # Price keeps the id
`;

describe("rspecParser", () => {
  it("reads numbered failures, not pending ones: the error's class and words, the first project frame", () => {
    expect(rspecParser.parse(OUTPUT)).toEqual([
      {
        test: "Price parses euros",
        file: "lib/price.rb",
        line: 3,
        expected: null,
        received: null,
        message: "NoMethodError: undefined method `delete' for nil:NilClass",
      },
      {
        test: "Price keeps the id",
        file: "spec/price_spec.rb",
        line: 12,
        expected: "7",
        received: '"7"',
        message: "Failure/Error: expect(Price.new(7).id).to eq(7)",
      },
    ]);
  });

  it("counts failures and errors outside examples from the closing line", () => {
    expect(rspecParser.reportedFailures?.(OUTPUT)).toBe(2);
    expect(
      rspecParser.reportedFailures?.(
        "0 examples, 0 failures, 2 errors occurred outside of examples",
      ),
    ).toBe(2);
    expect(rspecParser.detect("12 passed, 1 failed")).toBe(false);
  });
  it("reads `be true`'s sides printed without colons and `should ==`'s without its operator, the failing line as the words (hashdiff)", () => {
    const output = `Failures:

  1) Hashdiff.compare_values ignores string case when requested
     Failure/Error: expect(described_class.compare_values('horse', 'Horse', case_insensitive: true)).to be true

       expected true
            got false
     # ./spec/hashdiff/util_spec.rb:93:in \`block (3 levels) in <top (required)>'

  2) Hashdiff is able to decode property path
     Failure/Error: decoded.should == ['a', 'b', 0, 'c', 'city', 5]
       expected: ["a", "b", 0, "c", "city", 5]
            got: ["a", "b", "0", "c", "city", "5"] (using ==)
     # ./spec/hashdiff/util_spec.rb:8:in \`block (2 levels) in <top (required)>'

  3) Cart is empty
     Failure/Error: expect(cart).to be_empty

       expected \`#<Cart items=[1]>.empty?\` to be truthy, got false
     # ./spec/cart_spec.rb:4:in \`block (2 levels) in <top (required)>'

Finished in 0.1 seconds (files took 0.2 seconds to load)
3 examples, 3 failures
`;
    const [be, should, empty] = rspecParser.parse(output);
    expect(be).toEqual({
      test: "Hashdiff.compare_values ignores string case when requested",
      file: "spec/hashdiff/util_spec.rb",
      line: 93,
      expected: "true",
      received: "false",
      message:
        "Failure/Error: expect(described_class.compare_values('horse', 'Horse', case_insensitive: true)).to be true",
    });
    // The old `should ==` syntax's operator after the value is no part of it.
    expect(should).toMatchObject({
      expected: '["a", "b", 0, "c", "city", 5]',
      received: '["a", "b", "0", "c", "city", "5"]',
    });
    expect(empty).toMatchObject({
      expected: null,
      received: null,
      message: "expected `#<Cart items=[1]>.empty?` to be truthy, got false",
    });
  });

  it("reads a failing line RSpec splits below a bare Failure/Error: as one line (strings-case)", () => {
    const output = `Failures:

  1) Strings::Case::Extensions sentencecases a string with acronyms
     Failure/Error:
       expect("HTTP Response Code".sentencecase(acronyms: ["HTTP"]))
         .to eq("HTTP response code")

       expected: "HTTP response code"
            got: "HTTP Response code"

       (compared using ==)
     # ./spec/unit/extensions_spec.rb:62:in \`block (2 levels) in <top (required)>'

Finished in 0.1 seconds (files took 0.2 seconds to load)
1 example, 1 failure
`;
    expect(rspecParser.parse(output)).toEqual([
      {
        test: "Strings::Case::Extensions sentencecases a string with acronyms",
        file: "spec/unit/extensions_spec.rb",
        line: 62,
        expected: '"HTTP response code"',
        received: '"HTTP Response code"',
        message:
          'Failure/Error: expect("HTTP Response Code".sentencecase(acronyms: ["HTTP"])).to eq("HTTP response code")',
      },
    ]);
  });
});
