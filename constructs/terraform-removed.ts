import { TerraformElement, TerraformStack } from "cdktf";
import { Construct } from "constructs";
import { WRITE_ONLY_TERRAFORM_VERSION } from "./write-only/write-only";

/**
 * A Terraform `removed` block (Terraform 1.7+) with `destroy = false`: when the state holds the
 * resource at `from` and the configuration no longer declares it, Terraform forgets it instead of
 * destroying it; when the state does not hold it, the block plans nothing. cdktf 0.21 has no
 * construct for it. The stack then requires the Terraform every stack here may need (1.11, for
 * write-only arguments; help/getting-started.md), which covers 1.7: an older one refuses the
 * configuration rather than misread it.
 */
export class ForgetWithoutDestroying extends TerraformElement {
  /**
   * @param from the resource address, `<type>.<logical ID>`, that this configuration does not declare
   */
  constructor(
    scope: Construct,
    id: string,
    private readonly from: string,
  ) {
    super(scope, id, "removed");
    TerraformStack.of(this).addOverride("terraform.required_version", WRITE_ONLY_TERRAFORM_VERSION);
  }

  public toTerraform(): object {
    return { removed: [{ from: this.from, lifecycle: { destroy: false } }] };
  }
}
