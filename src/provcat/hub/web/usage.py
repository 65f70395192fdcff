"""The "use this adapter" box: the exact commands and Python lines that fetch one version and
load it, filled in from its manifest (the rank, target modules and first base model it names;
an UPPER_CASE placeholder where the manifest does not say)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Usage", "usage"]


@dataclass(frozen=True, slots=True)
class Usage:
    pull: str  # the provcat command
    python: str  # pull from Python; leaves the verified file's path in ``path``
    safetensors: str  # the tensors, by name
    peft: str  # the adapter applied to its base model with PEFT


def usage(
    hub_url: str,
    reference: str,
    *,
    rank: object,
    target_modules: list[str],
    base_models: list[str],
    private: bool,
) -> Usage:
    """The snippets for ``reference`` (``hub://ns/name:version``) on the hub at ``hub_url``."""
    token = ', token=os.environ["PROVCAT_HUB_TOKEN"]' if private else ""
    python = "\n".join(
        [
            *(["import os", ""] if private else []),
            "from provcat.hub import RegistryClient",
            "",
            f"with RegistryClient({hub_url!r}{token}) as hub:",
            f"    path = hub.local_path(hub.pull({reference!r}))  # verified against its SHA-256",
        ]
    )
    safetensors = "\n".join(
        [
            "from safetensors.torch import load_file",
            "",
            "weights = load_file(path)  # {tensor name: torch.Tensor}",
        ]
    )
    base = repr(base_models[0]) if base_models else "BASE_MODEL_ID"
    r = str(rank) if isinstance(rank, int) and not isinstance(rank, bool) else "RANK"
    modules = repr(list(target_modules)) if target_modules else "TARGET_MODULES"
    peft = "\n".join(
        [
            "from peft import LoraConfig, get_peft_model, set_peft_model_state_dict",
            "from safetensors.torch import load_file",
            "from transformers import AutoModelForCausalLM",
            "",
            f"base = AutoModelForCausalLM.from_pretrained({base})",
            f"model = get_peft_model(base, LoraConfig(r={r}, target_modules={modules}))",
            "set_peft_model_state_dict(model, load_file(path))",
        ]
    )
    pull = f"provcat hub pull --hub {hub_url} {reference}"
    return Usage(pull, python, safetensors, peft)
