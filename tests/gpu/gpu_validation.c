/* Proves the validation check is wired: a deliberate read-after-write hazard (a copy that
 * reads a buffer just written by another copy, with no barrier between them) must be
 * reported by synchronization validation, and a buffer with no usage flags by the core
 * checks. Calls Vulkan directly on purpose: this is the misuse the library never makes. */
#include "gpu_util.h"
#include "vk/vk.h"

#include <string.h>

static void quiet(gn_log_level level, const char *message, void *user)
{
    (void)level;
    (void)message;
    (*(uint32_t *)user)++;
}

int main(void)
{
    gn_vk vk;
    uint32_t logged = 0;
    gn_vk_desc d = {.validation = true, .log = quiet, .log_user = &logged, .log_level = GN_LOG_ERROR};
    gn_error err = {0};
    if (gn_vk_create(&vk, &d, &err)) {
        fprintf(stderr, "gn_vk_create: %s\n", err.message);
        return 1;
    }
    gn_vk_buffer a, b;
    gn_vk_buffer_desc bd = {.size = 4096,
                            .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                            .name = "hazard a"};
    CHECK(gn_vk_buffer_create(&vk, &bd, &a, &err) == GN_OK, "%s", err.message);
    bd.name = "hazard b";
    CHECK(gn_vk_buffer_create(&vk, &bd, &b, &err) == GN_OK, "%s", err.message);
    CHECK(vk.validation_messages == 0, "clean setup reported %u messages", vk.validation_messages);

    /* 1. synchronization: write a, then read a with no barrier */
    CHECK(gn_vk_frame_begin(&vk, &err) == GN_OK, "%s", err.message);
    static uint8_t data[4096];
    CHECK(gn_vk_upload_buffer(&vk, &a, 0, data, sizeof data, &err) == GN_OK, "%s", err.message);
    VkBufferCopy region = {0, 0, 4096};
    vkCmdCopyBuffer(vk.cur->cmd, a.buffer, b.buffer, 1, &region);
    CHECK(gn_vk_frame_submit(&vk, &err) == GN_OK, "%s", err.message);
    gn_vk_wait_idle(&vk, &err);
    uint32_t sync_msgs = vk.validation_messages;
    fprintf(stderr, "read-after-write hazard: %u message(s)\n", sync_msgs);
    CHECK(sync_msgs > 0, "synchronization validation missed a read-after-write hazard");

    /* 2. core validation: a buffer with no usage */
    VkBuffer bad = VK_NULL_HANDLE;
    VkBufferCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 64, .usage = 0};
    vkCreateBuffer(vk.device, &ci, NULL, &bad);
    fprintf(stderr, "buffer without usage: %u message(s)\n", vk.validation_messages - sync_msgs);
    CHECK(vk.validation_messages > sync_msgs, "core validation missed a buffer with no usage flags");
    if (bad) vkDestroyBuffer(vk.device, bad, NULL);
    CHECK(logged >= vk.validation_messages, "messages reached the log callback (%u of %u)", logged,
          vk.validation_messages);

    gn_vk_buffer_release(&vk, &a);
    gn_vk_buffer_release(&vk, &b);
    gn_vk_destroy(&vk);
    return gn_check_exit();
}
