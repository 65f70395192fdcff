"""OpenAI image generation and image editing: request models and endpoint classes.

``ImageGenerationRequest`` is the JSON body of ``POST /v1/images/generations``;
``ImageEditRequest`` is the multipart form of ``POST /v1/images/edits``. Both cover the DALL-E
models and the GPT image models; several fields only apply to one family, as each description
says.

Source: https://developers.openai.com/api/reference/resources/images/methods/generate
Source: https://developers.openai.com/api/reference/resources/images/methods/edit
Source: https://github.com/openai/openai-python/blob/main/src/openai/types/image_generate_params.py
Source: https://github.com/openai/openai-python/blob/main/src/openai/types/image_edit_params.py
Checked against openai 3.57.0 (tests/drift) on 2026-12-01.
"""

from typing import Annotated, Literal

from pydantic import Field

from provcat.endpoints.protocols.openai_chat import ReasoningEffort
from provcat.endpoints.request import RequestModel

__all__ = ["ImageEditRequest", "ImageGenerationRequest", "SvgAuthor", "SvgReasoning"]

_SIZE_PATTERN = r"^(auto|[0-9]+x[0-9]+)$"

ImageFormat = Literal["png", "jpeg", "webp", "gif", "svg"]
ImageQuality = Literal["standard", "low", "medium", "high", "xhigh", "max", "auto"]


class SvgReasoning(RequestModel):
    """Reasoning settings of the model that authors SVG output."""

    effort: ReasoningEffort | None = Field(
        None, description="Reasoning effort of the SVG author; its default when omitted."
    )


class SvgAuthor(RequestModel):
    """The model (and its reasoning effort) that writes SVG output (output_format=svg)."""

    model: str = Field(description="Model that authors the SVG, when SVG model selection is on.")
    reasoning: SvgReasoning | None = Field(None, description="The SVG author's reasoning.")


class _ImageOptions(RequestModel):
    """Fields that generation and editing share (GPT image models)."""

    complexity: Literal["low", "medium", "high"] | None = Field(
        None, description="Computation spent planning the image, apart from rendering quality."
    )
    frame_count: int | None = Field(
        None, ge=2, le=16, description="Frames of GIF output, 2 to 16 (default 9); gif only."
    )
    frame_duration_ms: int | None = Field(
        None, ge=0, description="Delay per GIF frame in milliseconds (default 200); gif only."
    )
    safety_identifier: str | None = Field(
        None,
        max_length=64,
        description="Stable, preferably hashed, end-user ID; takes precedence over user.",
    )
    svg: SvgAuthor | None = Field(
        None, description="Author model and reasoning for output_format=svg (needs n=1)."
    )


class ImageGenerationRequest(_ImageOptions):
    """Body of ``POST /v1/images/generations``."""

    prompt: str = Field(
        max_length=32000,
        description="Description of the image; up to 32000 chars (GPT image), 4000 (dall-e-3), "
        "1000 (dall-e-2).",
    )
    background: Literal["transparent", "opaque", "auto"] | None = Field(
        None, description="Background transparency (GPT image models); transparent needs png/webp."
    )
    model: str | None = Field(
        None, description="dall-e-2, dall-e-3 or a GPT image model such as gpt-image-1."
    )
    moderation: Literal["low", "auto"] | None = Field(
        None, description="Content moderation strictness for GPT image models (default auto)."
    )
    n: int | None = Field(
        None, ge=1, le=10, description="Number of images, 1 to 10 (dall-e-3 allows only 1)."
    )
    output_compression: int | None = Field(
        None, ge=0, le=100, description="Compression percent for webp/jpeg (GPT image models)."
    )
    output_format: ImageFormat | None = Field(
        None, description="File format of the images (GPT image models; gif and svg in preview)."
    )
    partial_images: int | None = Field(
        None, ge=0, le=3, description="Number of partial images sent while streaming, 0 to 3."
    )
    quality: ImageQuality | Literal["hd"] | None = Field(
        None, description="Image quality; the allowed values depend on the model."
    )
    response_format: Literal["url", "b64_json"] | None = Field(
        None, description="Return URLs or base64 data (DALL-E models only)."
    )
    size: str | None = Field(
        None,
        pattern=_SIZE_PATTERN,
        description="auto or WIDTHxHEIGHT, e.g. 1024x1024; allowed sizes depend on the model.",
    )
    stream: bool | None = Field(
        None, description="Whether to stream the generation (GPT image models)."
    )
    style: Literal["vivid", "natural"] | None = Field(
        None, description="Hyper-real (vivid) or natural look; dall-e-3 only."
    )
    user: str | None = Field(
        None, description="End-user ID that helps OpenAI monitor and detect abuse."
    )


class ImageEditRequest(_ImageOptions):
    """Multipart form of ``POST /v1/images/edits``."""

    image: bytes | str | Annotated[list[bytes | str], Field(min_length=1, max_length=16)] = Field(
        description="Image(s) to edit, each as file content or a path: up to 16 png/webp/jpg "
        "for GPT image models, one square png for dall-e-2."
    )
    prompt: str = Field(
        max_length=32000,
        description="Description of the wanted result; up to 32000 chars (1000 for dall-e-2).",
    )
    background: Literal["transparent", "opaque", "auto"] | None = Field(
        None, description="Background transparency (GPT image models); transparent needs png/webp."
    )
    input_fidelity: Literal["high", "low"] | None = Field(
        None, description="How closely to keep the input's style and faces (default low)."
    )
    markup: bytes | str | None = Field(
        None,
        description="Transparent PNG overlaid on the first image to guide the edit; not with mask.",
    )
    mask: bytes | str | None = Field(
        None,
        description="PNG whose transparent areas mark where to edit, as file content or a path.",
    )
    model: str | None = Field(
        None, description="dall-e-2 or a GPT image model such as gpt-image-1."
    )
    n: int | None = Field(None, ge=1, le=10, description="Number of images, 1 to 10.")
    output_compression: int | None = Field(
        None, ge=0, le=100, description="Compression percent for webp/jpeg (GPT image models)."
    )
    output_format: ImageFormat | None = Field(
        None, description="File format of the images (GPT image models; default png)."
    )
    partial_images: int | None = Field(
        None, ge=0, le=3, description="Number of partial images sent while streaming, 0 to 3."
    )
    quality: ImageQuality | None = Field(
        None, description="Image quality for GPT image models (default auto)."
    )
    response_format: Literal["url", "b64_json"] | None = Field(
        None, description="Return URLs or base64 data (dall-e-2 only)."
    )
    size: str | None = Field(
        None,
        pattern=_SIZE_PATTERN,
        description="auto or WIDTHxHEIGHT, e.g. 1024x1536; allowed sizes depend on the model.",
    )
    stream: bool | None = Field(None, description="Whether to stream the edit.")
    user: str | None = Field(
        None, description="End-user ID that helps OpenAI monitor and detect abuse."
    )
