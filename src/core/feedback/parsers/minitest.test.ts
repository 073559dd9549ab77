import { describe, expect, it } from "vitest";
import { failureOf } from "../failure-of.js";
import { minitestParser } from "./minitest.js";
// A real run: mustache/mustache's own suite with four bugs injected.
import MUSTACHE from "../../../../fixtures/real-world/minitest/mustache-partial-indent-inverted-false-classify/output.txt?raw";

describe("minitestParser", () => {
  it("reads each failure and error report of a real run, named, placed and with its values", () => {
    expect(minitestParser.detect(MUSTACHE)).toBe(true);
    expect(minitestParser.reportedFailures?.(MUSTACHE)).toBe(5);
    expect(minitestParser.parse(MUSTACHE)).toEqual([
      failureOf({
        test: "AutoloadingTest#test_folder_autoload",
        file: "/tmp/mustache/test/autoloading_test.rb",
        line: 45,
        expected: "TestViews::Namespaced",
        received: "Mustache",
      }),
      failureOf({
        test: "PartialTest#test_crazy_recursive_partials",
        file: "/tmp/mustache/test/partial_test.rb",
        line: 109,
        expected: "        1",
        received: "  1",
      }),
      failureOf({
        test: "PartialTest#test_partials_use_proper_context",
        file: "/tmp/mustache/lib/mustache/context.rb",
        line: 31,
        message: "NoMethodError: undefined method `to_str' for OuterThing:Class",
        testLocation: { file: "/tmp/mustache/test/partial_test.rb", line: 150 },
      }),
      failureOf({
        test: "MustacheTest#test_inverted_section",
        file: "/tmp/mustache/test/mustache_test.rb",
        line: 203,
        expected: '"  * first',
        received: '"* second',
      }),
      failureOf({
        test: "MustacheTest#test_classify",
        file: "/tmp/mustache/test/mustache_test.rb",
        line: 237,
        expected: '"Admin::TemplatePartial"',
        received: '"Admin/TemplatePartial"',
      }),
    ]);
  });

  it("reads Rails' unnumbered reports, placing one without a place at its rerun line", () => {
    const output = `Run options: --seed 4242

# Running:

.F

Failure:
OrdersControllerTest#test_should_get_index:
Expected response to be a <2XX: success>, but was a <302: Found> redirect to <http://www.example.com/login>


bin/rails test test/controllers/orders_controller_test.rb:8

the test printed this line
F

Failure:
OrderTest#test_total_in_cents [/app/test/models/order_test.rb:12]:
Totals are in cents.
Expected: 1250
  Actual: 12.5


bin/rails test test/models/order_test.rb:10

E

Error:
OrderTest#test_tax:
ZeroDivisionError: divided by 0
    app/models/order.rb:21:in \`/'
    app/models/order.rb:21:in \`tax'
    test/models/order_test.rb:17:in \`block in <class:OrderTest>'


bin/rails test test/models/order_test.rb:15

S

Finished in 0.412s, 9.7 runs/s, 7.3 assertions/s.
4 runs, 3 assertions, 2 failures, 1 errors, 1 skips
`;
    expect(minitestParser.reportedFailures?.(output)).toBe(3);
    expect(minitestParser.parse(output)).toEqual([
      failureOf({
        test: "OrdersControllerTest#test_should_get_index",
        file: "test/controllers/orders_controller_test.rb",
        line: 8,
        message:
          "Expected response to be a <2XX: success>, but was a <302: Found> redirect to <http://www.example.com/login>",
      }),
      failureOf({
        test: "OrderTest#test_total_in_cents",
        file: "/app/test/models/order_test.rb",
        line: 12,
        expected: "1250",
        received: "12.5",
        message: "Totals are in cents.",
      }),
      failureOf({
        test: "OrderTest#test_tax",
        file: "app/models/order.rb",
        line: 21,
        message: "ZeroDivisionError: divided by 0",
      }),
    ]);
  });

  it("reads past the encoding notes minitest puts above a side, not as its first line (erubi)", () => {
    const output = [
      "# Running:",
      "",
      "F",
      "",
      "  1) Failure:",
      "Erubi::Engine#test_0003_should escape all backslashes [test/test.rb:46]:",
      "--- expected",
      "+++ actual",
      "@@ -1 +1,3 @@",
      `-"_buf << '<tbody>\\\\ \\\\\\n'"`,
      "+# encoding: ASCII-8BIT",
      "+#    valid: true",
      `+"_buf << '<tbody>\\\\ \\\\n'"`,
      "",
      "1 runs, 1 assertions, 1 failures, 0 errors, 0 skips",
    ].join("\n");
    expect(minitestParser.parse(output)).toMatchObject([
      {
        test: "Erubi::Engine#test_0003_should escape all backslashes",
        expected: `"_buf << '<tbody>\\\\ \\\\\\n'"`,
        received: `"_buf << '<tbody>\\\\ \\\\n'"`,
      },
    ]);
  });

  it("never reads a skipped test as a failure, nor another runner's output as its own", () => {
    const skipped = `  1) Skipped:
CartTest#test_later [test/cart_test.rb:9]:
not yet

1 runs, 0 assertions, 0 failures, 0 errors, 1 skips
`;
    expect(minitestParser.parse(skipped)).toEqual([]);
    expect(minitestParser.detect("Tests: 1 failed, 2 passed, 3 total")).toBe(false);
  });
});
