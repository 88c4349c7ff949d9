// The profile photo: taken with the camera or chosen from a file, made upright and small (a JPEG of at most
// 512 px a side, well under pongd's 2 MB) in a canvas, sent as a data URL in POST /users/profile.
import { $, say } from "./api.js";

const MAX_SIDE = 512;

export function setUpPhoto() {
  let photo = null;        // a data URL not yet sent
  let camera = null;       // the MediaStream while the camera is open
  const video = $("photo-video"), img = $("avatar-img");

  function showImage(url) {
    img.src = url;
    img.hidden = !url;
    video.hidden = true;
    $("avatar-icon").toggleAttribute("hidden", !!url);  // an SVG element has no .hidden
    $("avatar").classList.toggle("has-photo", !!url);
  }

  function encode(source, width, height) {
    const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    canvas.getContext("2d").drawImage(source, 0, 0, canvas.width, canvas.height);
    photo = canvas.toDataURL("image/jpeg", 0.85);
    showImage(photo);
    $("photo-take").textContent = "Retake Photo";
    $("name").focus();
  }

  function stopCamera() {
    if (camera) camera.getTracks().forEach((t) => t.stop());
    camera = null;
    video.srcObject = null;
    video.hidden = true;
    $("photo-snap").hidden = true;
    $("photo-take").hidden = false;
  }

  $("photo-take").addEventListener("click", async () => {
    say($("photo-error"), "");
    try {
      camera = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "user", width: { ideal: 640 } } });
    } catch {
      return say($("photo-error"), "The camera is not available: choose a photo instead");
    }
    video.srcObject = camera;
    video.hidden = false;
    img.hidden = true;
    $("avatar-icon").toggleAttribute("hidden", true);
    await video.play().catch(() => {});
    $("photo-take").hidden = true;
    $("photo-snap").hidden = false;
    $("photo-snap").focus();
  });

  $("photo-snap").addEventListener("click", () => {
    if (!camera || !video.videoWidth) return;
    encode(video, video.videoWidth, video.videoHeight);
    stopCamera();
  });

  $("photo-file").addEventListener("change", async (event) => {
    const file = event.target.files && event.target.files[0];
    event.target.value = "";
    if (!file) return;
    say($("photo-error"), "");
    try {
      // createImageBitmap applies the EXIF orientation, so the stored picture is upright.
      const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
      encode(bitmap, bitmap.width, bitmap.height);
      bitmap.close();
    } catch {
      say($("photo-error"), "Photo must be a JPEG or PNG image");
    }
  });

  return {
    /** Shows the profile's current photo (a returning user), nothing new to send. */
    showExisting(url) { photo = null; showImage(url || ""); $("photo-take").textContent = url ? "Update Photo" : "Take Photo"; },
    /** The new photo as a data URL, or null when it was not changed. */
    changedPhoto() { return photo; },
    stopCamera,
  };
}
