import { caseDiagnostics, combineCases } from "./terraform-cases";

describe("combineCases / caseDiagnostics (terraform-cases.ts)", () => {
  it("prefixes each case's names and the references to them", () => {
    const config = { locals: { x: "1" }, resource: { terraform_data: { r: { input: "${local.x}" } } }, output: { o: { value: "${terraform_data.r.output}" } } };
    expect(combineCases({ a: config })).toEqual({
      locals: { a__x: "1" },
      resource: { terraform_data: { a__r: { input: "${local.a__x}" } } },
      output: { a__o: { value: "${terraform_data.a__r.output}" } },
    });
  });

  it("refuses a name two cases would both take", () => {
    expect(() => combineCases({ a: { locals: { b__c: "1" } }, a__b: { locals: { c: "2" } } })).toThrow("combineCases: a__b__c is taken twice");
  });

  it("gives a diagnostic to the longest case name that prefixes the name it is in", () => {
    const output = [
      "Error: bad",
      "",
      '  on main.tf.json line 1, in check "a__b__x":',
      "",
      "Error: worse",
      "",
      '  on main.tf.json line 2, in check "a__y":',
      "",
    ].join("\n");
    expect(caseDiagnostics(output, ["a", "a__b"]).map((d) => d.case)).toEqual(["a__b", "a"]);
  });
});
